import "server-only";
import { listKeyNames } from "@/db/queries/api-keys";
import { listAuditLog, type AuditLogPageDto } from "@/db/queries/audit-log";
import { getAuditFilterOptions, type AuditFilterOptionsDto } from "@/lib/usage/filter-options";
import { filtersError, parseAuditFilters, type AuditFilters } from "@/lib/audit-filters";
import { can } from "@/lib/authz";
import { orgAccess, type OrgAccess } from "@/lib/org-access";
import { keyEndings } from "@/db/queries/activity";
import { tailHead } from "@/db/queries/live-tail";
import type { KeyEndings } from "./audit-rows";
import type { KeyOptionDto } from "@/components/key-filter-options";
import { booksOf, viewModeOf } from "@/lib/view-mode";

/** Who may read an organization's audit log: the page and the CSV export ask before reading a row. */
export function auditAccess(slug: string): Promise<OrgAccess> {
  return orgAccess(slug, "audit.view");
}

export type AuditLogView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | { kind: "invalid"; message: string; options: AuditFilterOptionsDto; keys: KeyOptionDto[] }
  | {
      kind: "ok";
      filters: AuditFilters;
      page: AuditLogPageDto;
      options: AuditFilterOptionsDto;
      keys: KeyOptionDto[];
      endings: KeyEndings;
      /** The log's newest row id as the page was read: where its live tail starts (docs/features/live-tail.md). */
      liveSince: number;
    };

/** Everything the audit log page shows for this URL, or why it shows nothing. */
export async function loadAuditLog(slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<AuditLogView> {
  const access = await auditAccess(slug);
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId } = access.membership;
  const filters = parseAuditFilters(searchParams);
  const books = booksOf(orgId, viewModeOf(searchParams));
  const choices = Promise.all([getAuditFilterOptions(books), listKeyNames(orgId, books.mode)]);
  if (!filters.success) {
    const [options, keys] = await choices;
    return { kind: "invalid", message: filtersError(filters.error), options, keys };
  }
  // The head before the page: a request logged in between is on the page and also comes live, never neither.
  const liveSince = await tailHead(orgId);
  const [[options, keys], page] = await Promise.all([choices, listAuditLog(books, filters.data)]);
  const refusedKeys = can(access.membership.role, "activity.view") ? [...new Set(page.rows.filter((row) => row.status === 401).map((row) => row.keyId))] : [];
  const endings = Object.fromEntries(await keyEndings(orgId, refusedKeys));
  return { kind: "ok", filters: filters.data, page, options, keys, endings, liveSince };
}
