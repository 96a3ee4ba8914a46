import "server-only";
import { listKeyNames } from "@/db/queries/api-keys";
import { getAuditFilterOptions, listAuditLog, type AuditFilterOptionsDto, type AuditLogPageDto } from "@/db/queries/audit-log";
import { filtersError, parseAuditFilters, type AuditFilters } from "@/lib/audit-filters";
import { can } from "@/lib/authz";
import { orgAccess, type OrgAccess } from "@/lib/org-access";
import { keyEndings, type KeyEndingDto } from "@/db/queries/activity";
import type { KeyOptionDto } from "@/components/key-filter-options";

/** Who may read an organization's audit log: the page and the CSV export ask before reading a row. */
export function auditAccess(slug: string): Promise<OrgAccess> {
  return orgAccess(slug, "audit.view");
}

export type AuditLogView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | { kind: "invalid"; message: string; options: AuditFilterOptionsDto; keys: KeyOptionDto[] }
  | { kind: "ok"; filters: AuditFilters; page: AuditLogPageDto; options: AuditFilterOptionsDto; keys: KeyOptionDto[]; endings: KeyEndings };

/** The history entry that ended each key of the page's refused (401) rows, by key id. */
export type KeyEndings = Record<string, KeyEndingDto>;

/** Everything the audit log page shows for this URL, or why it shows nothing. */
export async function loadAuditLog(slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<AuditLogView> {
  const access = await auditAccess(slug);
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId } = access.membership;
  const filters = parseAuditFilters(searchParams);
  const choices = Promise.all([getAuditFilterOptions(orgId), listKeyNames(orgId)]);
  if (!filters.success) {
    const [options, keys] = await choices;
    return { kind: "invalid", message: filtersError(filters.error), options, keys };
  }
  const [[options, keys], page] = await Promise.all([choices, listAuditLog(orgId, filters.data)]);
  const refusedKeys = can(access.membership.role, "activity.view") ? [...new Set(page.rows.filter((row) => row.status === 401).map((row) => row.keyId))] : [];
  const endings = Object.fromEntries(await keyEndings(orgId, refusedKeys));
  return { kind: "ok", filters: filters.data, page, options, keys, endings };
}
