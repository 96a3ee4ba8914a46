import "server-only";
import { auditLogCsv } from "@/db/queries/audit-log";
import { parseAuditFilters } from "@/lib/audit-filters";
import { logCsvDownload } from "@/lib/csv-download";
import { auditAccess } from "../load-audit-log";
import { booksOf } from "@/lib/view-mode";

/** The audit log as CSV for the URL's filters; the role is read from the database here. */
export function exportAuditCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  return logCsvDownload({
    access: auditAccess(slug),
    filters: parseAuditFilters(searchParams),
    rows: (orgId, filters) => auditLogCsv(booksOf(orgId, filters.mode), filters, { now }),
    name: "audit-log",
    now,
  });
}
