import "server-only";
import { stringify } from "csv-stringify/sync";
import { auditLogBatches, type AuditLogRowDto } from "@/db/queries/audit-log";
import { filtersError, parseAuditFilters } from "@/lib/audit-filters";
import { utcDay } from "@/db/time";
import { auditAccess } from "../load-audit-log";

const COLUMNS: { header: string; value: (row: AuditLogRowDto) => string | number | null }[] = [
  { header: "time", value: (row) => row.createdAt },
  { header: "request_id", value: (row) => row.requestId },
  { header: "key_id", value: (row) => row.keyId },
  { header: "key_name", value: (row) => row.keyName },
  { header: "key_hint", value: (row) => row.keyHint },
  { header: "key_status", value: (row) => (row.keyRevoked ? "revoked" : "active") },
  { header: "method", value: (row) => row.method },
  { header: "path", value: (row) => row.path },
  { header: "endpoint", value: (row) => row.endpoint },
  { header: "status", value: (row) => row.status },
  { header: "duration_ms", value: (row) => row.durationMs },
  { header: "ip", value: (row) => row.ip },
  { header: "user_agent", value: (row) => row.userAgent },
];

const AUDIT_CSV_HEADERS = COLUMNS.map((column) => column.header);

// Callers choose paths and user agents: a value starting with = + - @ gets a leading ' so a
// spreadsheet shows it as text instead of running it as a formula.
const csv = (records: (string | number | null)[][]) => stringify(records, { escape_formulas: true, record_delimiter: "\r\n" });

function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The audit log as CSV: every row matching the URL's filters, streamed one keyset batch at a
 * time, so there is no row cap. The role is read from the database here.
 */
export async function exportAuditCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  const access = await auditAccess(slug);
  if (!access.ok) return refusal(access.status, access.message);
  const { membership } = access;
  const filters = parseAuditFilters(searchParams);
  if (!filters.success) return refusal(400, `The export's filters are not valid: ${filtersError(filters.error)}`);

  const batches = auditLogBatches(membership.orgId, filters.data, { now });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csv([AUDIT_CSV_HEADERS])));
    },
    // One batch per pull: the client's reading pace decides how fast the database is read.
    async pull(controller) {
      try {
        const batch = await batches.next();
        if (batch.done) controller.close();
        else controller.enqueue(encoder.encode(csv(batch.value.map((row) => COLUMNS.map((column) => column.value(row))))));
      } catch (error) {
        console.error(`Audit log export of ${slug} failed`, error);
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${membership.orgSlug}-${utcDay(now)}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
