import "server-only";
import { auditLogCsv } from "@/db/queries/audit-log";
import { filtersError, parseAuditFilters } from "@/lib/audit-filters";
import { utcDay } from "@/core/time";
import { auditAccess } from "../load-audit-log";

export function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The audit log as CSV: every row matching the URL's filters, streamed by the database as the
 * client reads it, so there is no row cap. The role is read from the database here.
 */
export async function exportAuditCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  const access = await auditAccess(slug);
  if (!access.ok) return refusal(access.status, access.message);
  const { membership } = access;
  const filters = parseAuditFilters(searchParams);
  if (!filters.success) return refusal(400, `The export's filters are not valid: ${filtersError(filters.error)}`);

  return csvResponse(await auditLogCsv(membership.orgId, filters.data, { now }), `audit-log-${membership.orgSlug}-${utcDay(now)}.csv`);
}

/** A CSV download that no cache keeps and no browser sniffs into something else. */
export function csvResponse(body: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
