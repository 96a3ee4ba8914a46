import "server-only";
import { listApiKeys } from "@/db/queries/api-keys";
import { getAuditFilterOptions, listAuditLog, type AuditFilterOptionsDto, type AuditLogPageDto } from "@/db/queries/audit-log";
import { filtersError, parseAuditFilters, type AuditFilters } from "@/lib/audit-filters";
import { orgAccess, type OrgAccess } from "@/lib/org-access";

/** Who may read an organization's audit log: the page and the CSV export ask before reading a row. */
export function auditAccess(slug: string): Promise<OrgAccess> {
  return orgAccess(slug, "audit.view");
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
export async function loadAuditLog(slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<AuditLogView> {
  const access = await auditAccess(slug);
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
