/**
 * Usage analytics at production size (PostgreSQL only): every query of the Usage page and of
 * GET /v1/usage over a request log of --usage-rows rows (10,000,000 unless given) of 100 keys and
 * 20 endpoints over 90 days, generated here (bench/request-log-at-scale.ts) with its rollups.
 * Prints each query's median and slowest time against the 50 ms budget; asserts nothing.
 */
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { usageRows } from "@/lib/usage/rows";
import { buildUsageSnapshots } from "@/lib/usage/snapshots";
import type { UsageQuery } from "@/core/usage-query";
import { parseUsageFilters, usageWindow, type UsageFilters, type UsageWindow } from "@/lib/usage/filters";
import { reportQueries, usageReport } from "@/lib/usage/report";
import { createOrg } from "@/tests/helpers/factories";
import { count, median, ms, printLines, printTable, timeRepeated } from "./lib";
import { loadRequestLogAtScale } from "./request-log-at-scale";
import { benchUsagePage } from "./usage-page-at-scale";

const DAY_MS = 86_400_000;
const REPEATS = 7;
const BUDGET_MS = 50;

function rowsArgument(): number {
  const given = process.argv.find((arg) => arg.startsWith("--usage-rows="));
  return given ? Number(given.slice("--usage-rows=".length)) : 10_000_000;
}

export async function benchUsageAtScale(): Promise<void> {
  const rows = rowsArgument();
  const now = new Date();
  const org = await createOrg("enterprise");
  const log = await loadRequestLogAtScale(org.id, rows, now, { keys: 100, days: 90 });
  const snapshotStarted = performance.now();
  await buildUsageSnapshots(getDb(), now);
  const snapshotMs = performance.now() - snapshotStarted;
  const [sizes] = rowsOf<{ minute: number; hour: number; day: number }>(
    await getDb().execute(sql`select (select count(*) from request_minute_rollup where org_id = ${org.id})::int as minute,
      (select count(*) from request_hourly_rollup where org_id = ${org.id})::int as hour, (select count(*) from request_daily_rollup where org_id = ${org.id})::int as day`),
  );
  console.log(`\n## Usage at scale: ${count(rows)} request-log rows, 100 keys, 20 endpoints, 90 days`);
  printLines([
    ["loaded, rollups rebuilt", `${(log.loadMs / 1000).toFixed(1)} s`],
    ["closed hours and days snapshotted (once, from nothing)", `${(snapshotMs / 1000).toFixed(1)} s`],
    ["rollup rows", `${count(sizes!.minute)} per minute, ${count(sizes!.hour)} per hour, ${count(sizes!.day)} per day`],
  ]);

  const { cases, reports } = usageBenchCases(org.id, log.keyIds[0]!, now);

  const results: string[][] = [];
  for (const { label, query } of cases) {
    const { samples, result } = await timeRepeated(() => usageRows(query), REPEATS, 1);
    results.push([label, count(result.length), ms(median(samples)), ms(Math.max(...samples)), median(samples) <= BUDGET_MS ? "yes" : "NO"]);
  }
  printTable(`Each query ${REPEATS} times after a warm-up (budget: median ≤ ${BUDGET_MS} ms)`, [
    ["query", "rows", "median", "slowest", "within budget"],
    ...results,
  ]);

  const pages: string[][] = [];
  for (const { label, filters, window } of reports) {
    const { samples } = await timeRepeated(() => usageReport({ orgId: org.id, mode: "live" }, filters, window), REPEATS, 1);
    pages.push([label, ms(median(samples)), ms(Math.max(...samples))]);
  }
  printTable(`The page's data (its queries at once, as the page runs them), ${REPEATS} times after a warm-up`, [["window", "median", "slowest"], ...pages]);

  await benchUsagePage(org, ["1h", "24h", "7d", "30d", "90d"]);
}

/** The Usage page's queries for each window it offers, unfiltered and filtered to the busiest key, and two /v1/usage pages. */
export function usageBenchCases(orgId: string, busiestKey: string, now: Date) {
  // The page's own queries for each window it offers, unfiltered and filtered to the busiest key.
  const cases: { label: string; query: UsageQuery }[] = [];
  const reports: { label: string; filters: UsageFilters; window: UsageWindow }[] = [];
  for (const range of ["1h", "24h", "7d", "30d", "90d"] as const) {
    for (const key of [undefined, busiestKey]) {
      const filters = parseUsageFilters({ range, key }).data!;
      const chosen = usageWindow(filters, now);
      if (!chosen.ok) throw new Error(chosen.message);
      const label = `${range}${key ? ", busiest key" : ""}`;
      reports.push({ label, filters, window: chosen.window });
      for (const [name, query] of Object.entries(reportQueries({ orgId: orgId, mode: "live" }, filters, chosen.window)))
        cases.push({ label: `${label}: ${name}`, query });
    }
  }
  const ninetyDays = reports.find((report) => report.label === "90d")!.window;
  cases.push(
    {
      label: "/v1/usage 90 days by day × key × endpoint, first page of 100",
      query: { orgId: orgId, mode: "live", from: ninetyDays.from, to: ninetyDays.to, bucket: "day", groupBy: ["key", "endpoint"], limit: 101 },
    },
    {
      label: "/v1/usage 35 days by hour, 5xx, first page of 100",
      query: {
        orgId: orgId,
        mode: "live",
        from: new Date(ninetyDays.to.getTime() - 35 * DAY_MS),
        to: ninetyDays.to,
        bucket: "hour",
        groupBy: [],
        status: "5xx",
        limit: 101,
      },
    },
  );

  return { cases, reports };
}
