import "server-only";
import { listApiKeys } from "@/db/queries/api-keys";
import { getAuditFilterOptions, listAuditLog, type AuditFilterOptionsDto, type AuditLogPageDto } from "@/db/queries/audit-log";
import { findMembershipBySlug, type MembershipDto } from "@/db/queries/organizations";
import { filtersError, parseAuditFilters, type AuditFilters } from "@/lib/audit-filters";
import { can, deniedMessage } from "@/lib/authz";

export type AuditAccess = { ok: true; membership: MembershipDto } | { ok: false; status: 401 | 403 | 404; message: string };

/**
 * Who may read an organization's audit log, decided from the membership row in the database:
 * the page and the CSV export both ask this before they read a single row.
 */
export async function auditAccess(userId: string | null, slug: string): Promise<AuditAccess> {
  if (!userId) return { ok: false, status: 401, message: "Your session has ended. Sign in again." };
  const membership = await findMembershipBySlug(userId, slug);
  // Another organization's slug is indistinguishable from one that does not exist.
  if (!membership) return { ok: false, status: 404, message: "Not found." };
  if (!can(membership.role, "audit.view")) return { ok: false, status: 403, message: deniedMessage("audit.view") };
  return { ok: true, membership };
}

export interface AuditKeyOptionDto {
  id: string;
  name: string;
  hint: string;
  revoked: boolean;
}

export type AuditLogView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | { kind: "invalid"; message: string; options: AuditFilterOptionsDto; keys: AuditKeyOptionDto[] }
  | { kind: "ok"; filters: AuditFilters; page: AuditLogPageDto; options: AuditFilterOptionsDto; keys: AuditKeyOptionDto[] };

/** Everything the audit log page shows for this URL, or why it shows nothing. */
export async function loadAuditLog(userId: string | null, slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<AuditLogView> {
  const access = await auditAccess(userId, slug);
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId } = access.membership;
  const filters = parseAuditFilters(searchParams);
  const choices = Promise.all([getAuditFilterOptions(orgId), keyOptions(orgId)]);
  if (!filters.success) {
    const [options, keys] = await choices;
    return { kind: "invalid", message: filtersError(filters.error), options, keys };
  }
  const [[options, keys], page] = await Promise.all([choices, listAuditLog(orgId, filters.data)]);
  return { kind: "ok", filters: filters.data, page, options, keys };
}

async function keyOptions(orgId: string): Promise<AuditKeyOptionDto[]> {
  const keys = await listApiKeys(orgId);
  return keys.map((key) => ({ id: key.id, name: key.name, hint: key.hint, revoked: key.status === "revoked" }));
}
