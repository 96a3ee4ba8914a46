/**
 * SPEC §13 at production size (PostgreSQL only): every query of the Usage page and of
 * GET /v1/usage over a request log of --usage-rows rows (10,000,000 unless given) of 100 keys and
 * 20 endpoints over 90 days, generated here (bench/request-log-at-scale.ts) with its rollups.
 * Prints each query's median and slowest time against the 50 ms budget; asserts nothing.
 */
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/partitions";
import { usageRows } from "@/db/queries/usage";
import type { UsageQuery } from "@/core/usage-query";
import { createOrg } from "@/tests/helpers/factories";
import { count, median, ms, printLines, printTable, timeRepeated } from "./lib";
import { loadRequestLogAtScale } from "./request-log-at-scale";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const REPEATS = 7;
const BUDGET_MS = 50;

function rowsArgument(): number {
  const given = process.argv.find((arg) => arg.startsWith("--usage-rows="));
  return given ? Number(given.slice("--usage-rows=".length)) : 10_000_000;
}

/** The window a preset of the page covers, on its bucket's boundaries, with the current bucket. */
function presetWindow(now: Date, span: number, bucket: number): { from: Date; to: Date } {
  const end = Math.ceil((now.getTime() + 1) / bucket) * bucket;
  return { from: new Date(end - span), to: new Date(end) };
}

export async function benchUsageAtScale(): Promise<void> {
  const rows = rowsArgument();
  const now = new Date();
  const org = await createOrg("enterprise");
  const log = await loadRequestLogAtScale(org.id, rows, now, { keys: 100, days: 90 });
  const [sizes] = rowsOf<{ minute: number; hour: number; day: number }>(
    await getDb().execute(sql`select (select count(*) from request_minute_rollup where org_id = ${org.id})::int as minute,
      (select count(*) from request_hourly_rollup where org_id = ${org.id})::int as hour, (select count(*) from request_daily_rollup where org_id = ${org.id})::int as day`),
  );
  console.log(`\n## Usage at scale: ${count(rows)} request-log rows, 100 keys, 20 endpoints, 90 days`);
  printLines([
    ["loaded, rollups rebuilt", `${(log.loadMs / 1000).toFixed(1)} s`],
    ["rollup rows", `${count(sizes!.minute)} per minute, ${count(sizes!.hour)} per hour, ${count(sizes!.day)} per day`],
  ]);

  const busiestKey = log.keyIds[0]!;
  const windows = {
    "last hour": { ...presetWindow(now, HOUR_MS, 60_000), bucket: "minute" as const },
    "24 hours": { ...presetWindow(now, DAY_MS, HOUR_MS), bucket: "hour" as const },
    "7 days": { ...presetWindow(now, 7 * DAY_MS, HOUR_MS), bucket: "hour" as const },
    "30 days": { ...presetWindow(now, 30 * DAY_MS, DAY_MS), bucket: "day" as const },
    "90 days": { ...presetWindow(now, 90 * DAY_MS, DAY_MS), bucket: "day" as const },
  };
  const cases: { label: string; query: UsageQuery }[] = [];
  for (const [name, { from, to, bucket }] of Object.entries(windows)) {
    const base = { orgId: org.id, from, to };
    cases.push(
      { label: `${name}: requests and latency over time, by status`, query: { ...base, bucket, groupBy: ["status"] } },
      { label: `${name}: by key`, query: { ...base, bucket: null, groupBy: ["key"] } },
      { label: `${name}: by endpoint`, query: { ...base, bucket: null, groupBy: ["endpoint"] } },
      { label: `${name}: by key × endpoint`, query: { ...base, bucket: null, groupBy: ["key", "endpoint"] } },
      { label: `${name}, busiest key: by endpoint`, query: { ...base, bucket: null, groupBy: ["endpoint"], keyId: busiestKey } },
    );
  }
  const ninety = windows["90 days"];
  cases.push(
    { label: "/v1/usage 90 days by day × key × endpoint, first page of 100", query: { orgId: org.id, from: ninety.from, to: ninety.to, bucket: "day", groupBy: ["key", "endpoint"], limit: 101 } },
    { label: "/v1/usage 35 days by hour, 5xx, first page of 100", query: { orgId: org.id, from: new Date(ninety.to.getTime() - 35 * DAY_MS), to: ninety.to, bucket: "hour", groupBy: [], status: "5xx", limit: 101 } },
  );

  const results: string[][] = [];
  for (const { label, query } of cases) {
    const { samples, result } = await timeRepeated(() => usageRows(query), REPEATS, 1);
    results.push([label, count(result.length), ms(median(samples)), ms(Math.max(...samples)), median(samples) <= BUDGET_MS ? "yes" : "NO"]);
  }
  printTable(`Each query ${REPEATS} times after a warm-up (budget: median ≤ ${BUDGET_MS} ms)`, [["query", "rows", "median", "slowest", "within budget"], ...results]);
}
