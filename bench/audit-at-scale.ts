/**
 * The audit log's two heavy paths at production size (PostgreSQL only): every filter combination
 * the page offers, and the CSV export of a million rows against a plain COPY of the same rows.
 * The log is generated here (bench/request-log-at-scale.ts); its size comes from --log-rows
 * (10,000,000 unless given), and loading it is timed and printed.
 */
import { finished } from "node:stream/promises";
import { eq, sql } from "drizzle-orm";
import { getDb, postgresClient } from "@/db";
import { rowsOf } from "@/db/rows";
import { withLiterals } from "@/db/queries/csv-export";
import { auditLogCsv, listAuditLog, sliceQuery } from "@/db/queries/audit-log";
import { trafficScope } from "@/db/queries/keys-of-mode";
import type { Route } from "@/db/queries/audit-log-route";
import type { AuditLogFilters } from "@/core/request-log";
import { requestDailyRollup } from "@/db/schema";
import { utcDay } from "@/core/time";
import { createOrg } from "@/tests/helpers/factories";
import { count, median, mib, ms, printLines, printTable, timeRepeated } from "./lib";
import { loadRequestLogAtScale } from "./request-log-at-scale";

const DAY_MS = 24 * 3600_000;
const REPEATS = 5;
const BUDGET_MS = 50;

function logRowsArgument(): number {
  const given = process.argv.find((arg) => arg.startsWith("--log-rows="));
  return given ? Number(given.slice("--log-rows=".length)) : 10_000_000;
}

/** Every combination of the page's filters, each at its sparsest value where it has a choice. */
function combinations(keys: { busiest: string; quietest: string }, endpoint: string): { label: string; filters: AuditLogFilters }[] {
  const choices = {
    key: [undefined, keys.busiest, keys.quietest],
    endpoint: [undefined, endpoint],
    status: [undefined, "503", "5xx"],
    method: [undefined, "POST"],
    range: [undefined, "24h"] as const,
  };
  const keyName = (id: string) => (id === keys.busiest ? "busiest key" : "quietest key");
  const all: { label: string; filters: AuditLogFilters }[] = [];
  for (const key of choices.key)
    for (const endpoint of choices.endpoint)
      for (const status of choices.status)
        for (const method of choices.method)
          for (const range of choices.range) {
            const filters: AuditLogFilters = { key, endpoint, status, method, range };
            const parts = [key && keyName(key), endpoint, status, method, range && `last ${range}`].filter(Boolean);
            all.push({ label: parts.join(" + ") || "no filter", filters });
          }
  return all;
}

async function benchFilterCombinations(orgId: string, keyIds: string[], now: Date): Promise<void> {
  const [endpoint] = rowsOf<{ endpoint: string }>(
    await getDb().execute(sql`select endpoint from request_daily_rollup where org_id = ${orgId} group by endpoint order by sum(count) asc limit 1`),
  );
  const cases = combinations({ busiest: keyIds[0]!, quietest: keyIds[keyIds.length - 1]! }, endpoint!.endpoint);
  const results: { label: string; first: number; second: number; rows: number }[] = [];
  for (const { label, filters } of cases) {
    const first = await timeRepeated(() => listAuditLog({ orgId: orgId, mode: "live" }, filters, { now }), REPEATS, 1);
    const older = first.result.older;
    const second = older
      ? await timeRepeated(() => listAuditLog({ orgId: orgId, mode: "live" }, { ...filters, before: older }, { now }), REPEATS, 1)
      : undefined;
    results.push({ label, first: median(first.samples), second: second ? median(second.samples) : Number.NaN, rows: first.result.rows.length });
  }
  const worst = (result: (typeof results)[number]) => Math.max(result.first, Number.isNaN(result.second) ? 0 : result.second);
  results.sort((a, b) => worst(b) - worst(a));
  printTable(
    `6. Audit log filters at ${count(await orgRows(orgId))} rows: ${cases.length} combinations, page 1 and page 2, median of ${REPEATS} (slowest 12)`,
    [
      ["filters", "page 1", "page 2", "rows on page 1"],
      ...results
        .slice(0, 12)
        .map((result) => [result.label, ms(result.first), Number.isNaN(result.second) ? "(one page)" : ms(result.second), String(result.rows)]),
    ],
  );
  const over = results.filter((result) => worst(result) > BUDGET_MS);
  printLines([
    ["slowest median of all combinations", ms(worst(results[0]!))],
    [`combinations over ${BUDGET_MS} ms`, `${over.length} of ${cases.length}`],
  ]);
  await explainSparse(orgId, keyIds[0]!, now);
}

async function orgRows(orgId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await getDb().execute(sql`select coalesce(sum(count), 0)::float8 as n from request_daily_rollup where org_id = ${orgId}`),
  );
  return Number(row!.n);
}

/**
 * EXPLAIN ANALYZE of the sparsest combination (the busiest key's 503s), page 1, read both ways:
 * by combination, as the rollups choose for it, and in time order, as it was read before.
 */
async function explainSparse(orgId: string, busiestKey: string, now: Date): Promise<void> {
  const filters: AuditLogFilters = { key: busiestKey, status: "503" };
  for (const route of ["by-combination", "time-order"] as Route[]) {
    const statement = sliceQuery(await trafficScope({ orgId, mode: "live" }), filters, now, { direction: "older", limit: 51, route }).toSQL();
    const plan = rowsOf<{ "QUERY PLAN": string }>(await getDb().execute(sql.raw(`explain (analyze, costs off) ${await withLiterals(statement)}`)));
    const lines = plan.map((row) => row["QUERY PLAN"]);
    console.log(`\n  EXPLAIN ANALYZE, page 1 of the busiest key's 503s, read ${route}:`);
    // The plan's nodes and what they read; sort methods, keys and conditions left out.
    const shown = lines.filter(
      (line) =>
        /->|^\S|Rows Removed|Heap Fetches|Execution Time/.test(line) && !/Seq Scan on request_log_(default|\d{4}_\d\d) \S+ \(actual time=\S+ rows=0/.test(line),
    );
    const nodes = shown.filter((line) => !line.startsWith("Execution Time"));
    for (const line of nodes.slice(0, 24)) console.log(`    ${line}`);
    if (nodes.length > 24) console.log(`    … ${nodes.length - 24} more lines`);
    console.log(`    ${shown.find((line) => line.startsWith("Execution Time"))}`);
  }
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; peakRss: number }> {
  let bytes = 0;
  let peakRss = process.memoryUsage.rss();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    // rss() alone: process.memoryUsage() also walks the heap, which would cost the export a third of its speed.
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  return { bytes, peakRss };
}

/** The same rows as the export, raw columns, through a plain COPY on the same client kind. */
async function plainCopy(orgId: string, from: Date, to: Date): Promise<{ ms: number; bytes: number }> {
  const client = postgresClient()!;
  const started = performance.now();
  const source = await client
    .unsafe(
      `copy (select r.created_at, r.request_id, r.api_key_id, k.name, k.hint, k.revoked_at, r.method, r.path, r.endpoint, r.status, r.duration_ms, r.ip, r.user_agent
             from request_log r left join api_keys k on k.id = r.api_key_id and k.org_id = r.org_id
             where r.org_id = '${orgId}' and r.created_at >= '${from.toISOString()}' and r.created_at < '${to.toISOString()}'
             order by r.created_at desc, r.id desc) to stdout with (format csv, header true)`,
    )
    .readable();
  let bytes = 0;
  source.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
  await finished(source);
  return { ms: performance.now() - started, bytes };
}

async function benchExport(orgId: string, now: Date): Promise<void> {
  // Three whole UTC days that end before today: about a tenth of the 30 days' rows.
  const to = `${utcDay(new Date(now.getTime() - DAY_MS))}`;
  const from = `${utcDay(new Date(now.getTime() - 3 * DAY_MS))}`;
  const filters: AuditLogFilters = { range: "custom", from, to };
  const [selected] = rowsOf<{ n: number }>(
    await getDb().execute(sql`select coalesce(sum(count), 0)::float8 as n from request_daily_rollup where org_id = ${orgId} and day between ${from} and ${to}`),
  );
  const rows = Number(selected!.n);
  const fromDate = new Date(`${from}T00:00:00.000Z`);
  const toDate = new Date(new Date(`${to}T00:00:00.000Z`).getTime() + DAY_MS);

  // The first export of a process opens the COPY client and compiles the stream's code: done
  // once on a few rows, so the rounds measure what a million rows cost.
  await drain(await auditLogCsv({ orgId: orgId, mode: "live" }, { ...filters, status: "503" }, { now }));
  const exports: { ms: number; bytes: number; rssGrowth: number }[] = [];
  const copies: { ms: number; bytes: number }[] = [];
  for (let round = 0; round < 3; round++) {
    (globalThis as { gc?: () => void }).gc?.();
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    const { bytes, peakRss } = await drain(await auditLogCsv({ orgId: orgId, mode: "live" }, filters, { now }));
    exports.push({ ms: performance.now() - started, bytes, rssGrowth: peakRss - rssBefore });
    copies.push(await plainCopy(orgId, fromDate, toDate));
  }
  const exportMs = median(exports.map((run) => run.ms));
  const copyMs = median(copies.map((run) => run.ms));
  printTable(`7. CSV export of ${count(rows)} rows (${from} to ${to}), three rounds, each followed by a plain COPY of the same rows`, [
    ["", "export (auditLogCsv)", "plain COPY"],
    ...exports.map((run, i) => [
      `round ${i + 1}`,
      `${ms(run.ms)}, ${count(Math.round((rows / run.ms) * 1000))} rows/s, RSS +${mib(run.rssGrowth)}`,
      `${ms(copies[i]!.ms)}, ${count(Math.round((rows / copies[i]!.ms) * 1000))} rows/s`,
    ]),
  ]);
  printLines([
    ["export rows/s (median)", count(Math.round((rows / exportMs) * 1000))],
    ["export ÷ plain COPY, throughput", `${(copyMs / exportMs).toFixed(2)}×`],
    ["largest RSS growth during an export", mib(Math.max(...exports.map((run) => run.rssGrowth)))],
    ["CSV size", `${mib(exports[0]!.bytes)} (plain COPY ${mib(copies[0]!.bytes)})`],
  ]);
}

/** The rollup rows a route choice reads for the organization. */
async function rollupSize(orgId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(requestDailyRollup)
    .where(eq(requestDailyRollup.orgId, orgId));
  return row!.n;
}

export async function benchAuditAtScale(): Promise<void> {
  const rows = logRowsArgument();
  const now = new Date();
  const neighbour = await createOrg("pro");
  const org = await createOrg("enterprise");
  // Another organization's tenth beside it, so every index holds rows the queries must skip.
  const other = await loadRequestLogAtScale(neighbour.id, Math.round(rows / 10), now, { keys: 3 });
  const log = await loadRequestLogAtScale(org.id, rows, now);
  console.log(
    `\n(generated ${count(rows + other.rows)} request_log rows in ${((log.loadMs + other.loadMs) / 1000).toFixed(0)} s, ` +
      `${count(await rollupSize(org.id))} rollup rows for the organization)`,
  );
  await benchFilterCombinations(org.id, log.keyIds, now);
  await benchExport(org.id, now);
}
