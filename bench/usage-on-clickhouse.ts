/**
 * Usage analytics from ClickHouse beside PostgreSQL (docs/features/analytics-store.md): the request
 * log of --usage-rows rows (10,000,000 unless given) loaded as `usage-at-scale` loads it, exported
 * to the ClickHouse BENCH_CLICKHOUSE_URL names (embedded, in a directory of its own, unless given),
 * then every query of the Usage page and two /v1/usage pages answered both ways, alternately, with
 * the answers compared. Prints the export's rate and each query's medians side by side; asserts
 * nothing but that both answer the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { getDb } from "@/db";
import { closeClickhouse } from "@/db/clickhouse/client";
import { exportRequestLog } from "@/lib/analytics/export";
import { usageRows } from "@/lib/usage/rows";
import { buildUsageSnapshots } from "@/lib/usage/snapshots";
import { createOrg } from "@/tests/helpers/factories";
import { count, median, ms, printLines, printTable, times } from "./lib";
import { loadRequestLogAtScale } from "./request-log-at-scale";
import { usageBenchCases } from "./usage-at-scale";

const ROUNDS = 7;

function rowsArgument(): number {
  const given = process.argv.find((arg) => arg.startsWith("--usage-rows="));
  return given ? Number(given.slice("--usage-rows=".length)) : 10_000_000;
}

/** Runs `read` with the store on (`url`) or off. */
async function withStore<T>(url: string | undefined, read: () => Promise<T>): Promise<T> {
  const before = process.env.CLICKHOUSE_URL;
  if (url) process.env.CLICKHOUSE_URL = url;
  else delete process.env.CLICKHOUSE_URL;
  try {
    return await read();
  } finally {
    if (before) process.env.CLICKHOUSE_URL = before;
    else delete process.env.CLICKHOUSE_URL;
  }
}

export async function benchUsageOnClickhouse(): Promise<void> {
  const rows = rowsArgument();
  const directory = process.env.BENCH_CLICKHOUSE_URL ? null : mkdtempSync(path.join(tmpdir(), "bench-clickhouse-"));
  const url = process.env.BENCH_CLICKHOUSE_URL ?? `chdb:${directory}`;
  try {
    const now = new Date();
    const org = await createOrg("enterprise");
    const log = await loadRequestLogAtScale(org.id, rows, now, { keys: 100, days: 90 });
    await buildUsageSnapshots(getDb(), now);
    const exportStarted = performance.now();
    const exported = await withStore(url, () => exportRequestLog(getDb()));
    const exportMs = performance.now() - exportStarted;
    console.log(`\n## Usage from ClickHouse beside PostgreSQL: ${count(rows)} request-log rows, 100 keys, 20 endpoints, 90 days`);
    printLines([
      ["ClickHouse", directory ? "embedded (chdb), in this process" : "BENCH_CLICKHOUSE_URL"],
      ["exported", `${count(exported ?? 0)} rows in ${(exportMs / 1000).toFixed(1)} s (${count(Math.round(((exported ?? 0) / exportMs) * 1000))} rows/s)`],
    ]);

    const results: string[][] = [];
    let differing = 0;
    for (const { label, query } of usageBenchCases(org.id, log.keyIds[0]!, now).cases) {
      const samples = { postgres: [] as number[], clickhouse: [] as number[] };
      const answers = { postgres: await usageRows(query), clickhouse: await withStore(url, () => usageRows(query)) };
      for (let round = 0; round < ROUNDS; round++) {
        for (const store of ["postgres", "clickhouse"] as const) {
          const started = performance.now();
          await withStore(store === "clickhouse" ? url : undefined, () => usageRows(query));
          samples[store].push(performance.now() - started);
        }
      }
      const same = isDeepStrictEqual(answers.postgres, answers.clickhouse);
      if (!same) differing++;
      const [postgres, clickhouse] = [median(samples.postgres), median(samples.clickhouse)];
      results.push([label, count(answers.postgres.length), ms(postgres), ms(clickhouse), times(clickhouse / postgres), same ? "yes" : "NO"]);
    }
    printTable(`Each query ${ROUNDS} times on each, alternately, after one read each (medians)`, [
      ["query", "rows", "PostgreSQL", "ClickHouse", "ClickHouse ÷ PostgreSQL", "same answer"],
      ...results,
    ]);
    if (differing > 0) throw new Error(`${differing} queries answered differently from ClickHouse and PostgreSQL`);
  } finally {
    await closeClickhouse();
    if (directory) rmSync(directory, { recursive: true, force: true });
  }
}
