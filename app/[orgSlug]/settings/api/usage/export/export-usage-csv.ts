import "server-only";
import { stringify } from "csv-stringify/sync";
import { utcDay } from "@/core/time";
import { filtersError } from "@/lib/audit-filters";
import { csvResponse, refusal } from "@/lib/csv-download";
import { BREAKDOWN_NAMES, type Breakdown } from "@/lib/usage/breakdowns";
import { parseUsageFilters, usageWindow } from "@/lib/usage/filters";
import { usageBreakdown } from "@/lib/usage/report";
import { usageAccess } from "../load-usage";
import { booksOf } from "@/lib/view-mode";

const COLUMNS = ["window_start", "window_end", "key_id", "key_name", "endpoint", "requests", "share", "errors_4xx", "errors_5xx", "p50_ms", "p95_ms", "p99_ms"];

/**
 * One breakdown of the Usage page (`table`: key, endpoint or key-endpoint) as CSV, for the URL's
 * window and filters; the role is read from the database before any row. csv-stringify quotes
 * and escapes, and turns a value a spreadsheet would run as a formula (a key named "=1+1") into text.
 */
export async function exportUsageCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  const access = await usageAccess(slug);
  if (!access.ok) return refusal(access.status, access.message);
  const table = searchParams.get("table") ?? "key";
  if (!(BREAKDOWN_NAMES as string[]).includes(table)) return refusal(400, `Choose a table: ${BREAKDOWN_NAMES.join(", ")}.`);
  const filters = parseUsageFilters(searchParams);
  if (!filters.success) return refusal(400, `The export's filters are not valid: ${filtersError(filters.error)}`);
  const window = usageWindow(filters.data, now);
  if (!window.ok) return refusal(400, `The export's window is not valid: ${window.message}`);
  const { orgId, orgSlug } = access.membership;
  const rows = await usageBreakdown(booksOf(orgId, filters.data.mode), filters.data, window.window, table as Breakdown);
  const from = window.window.from.toISOString();
  const to = window.window.to.toISOString();
  const csv = stringify(
    rows.map((row) => [
      from,
      to,
      row.keyId,
      row.keyName,
      row.endpoint,
      row.requests,
      row.share.toFixed(6),
      row.errors4xx,
      row.errors5xx,
      row.p50Ms,
      row.p95Ms,
      row.p99Ms,
    ]),
    { header: true, columns: COLUMNS, escape_formulas: true },
  );
  return csvResponse(new Response(csv).body!, `usage-by-${table}-${orgSlug}-${utcDay(now)}.csv`);
}
