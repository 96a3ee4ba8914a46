/**
 * What the metrics cost the gateway (docs/performance.md#metrics-on-the-gateway): the API server
 * with METRICS_TOKEN set, scraped once a round as Prometheus would, against the same server
 * without it, in alternating rounds on PostgreSQL. The metrics' bar: within 3 % of the throughput.
 */
import { startServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load, type LoadRound } from "./gateway-ratio";
import { geometricMeanWithSpread, median, printTable, processCpuMs } from "./lib";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_SECONDS = 6;
const WARM_UP_SECONDS = 2;
const TOKEN = "bench-metrics-token";

interface CostRound extends LoadRound {
  cpuMicrosPerRequest: number;
}

async function round(keys: string[], metrics: boolean): Promise<CostRound> {
  const server = await startServerProcess("api-server.ts", { METRICS_TOKEN: metrics ? TOKEN : "" });
  try {
    await load(server.base, keys, WARM_UP_SECONDS);
    const cpuBefore = processCpuMs(server.child.pid!);
    const loaded = await load(server.base, keys, ROUND_SECONDS);
    const cpuMs = processCpuMs(server.child.pid!) - cpuBefore;
    if (metrics) {
      const scrape = await fetch(`${server.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      if (!(await scrape.text()).includes("http_request_duration_seconds_count"))
        throw new Error(`The scrape answered ${scrape.status} without the request counts`);
    }
    const responses = Object.values(loaded.statuses).reduce((sum, n) => sum + n, 0);
    return { ...loaded, cpuMicrosPerRequest: (cpuMs * 1000) / responses };
  } finally {
    await server.stop();
  }
}

export async function benchMetricsCost(): Promise<void> {
  if (!process.env.DATABASE_URL) return console.log("\nMetrics cost: PostgreSQL only (set DATABASE_URL).");
  const { values } = await benchOrganization("Metrics bench");
  const off: CostRound[] = [];
  const on: CostRound[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    // Which goes first alternates, so a warmer second turn favours neither.
    if (n % 2 === 0) off.push(await round(values, false));
    on.push(await round(values, true));
    if (n % 2 === 1) off.push(await round(values, false));
  }
  const throughput = on.map((r, i) => r.requestsPerSecond / off[i]!.requestsPerSecond);
  const cpu = on.map((r, i) => r.cpuMicrosPerRequest / off[i]!.cpuMicrosPerRequest);
  printTable(`## Metrics on the gateway: ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, METRICS_TOKEN set (one scrape a round) against unset`, [
    ["", "metrics off", "metrics on", "on / off"],
    [
      "requests/s (median)",
      median(off.map((r) => r.requestsPerSecond)).toFixed(0),
      median(on.map((r) => r.requestsPerSecond)).toFixed(0),
      `median ${median(throughput).toFixed(3)}, ${geometricMeanWithSpread(throughput)}`,
    ],
    [
      "server CPU µs/request (median)",
      median(off.map((r) => r.cpuMicrosPerRequest)).toFixed(0),
      median(on.map((r) => r.cpuMicrosPerRequest)).toFixed(0),
      `median ${median(cpu).toFixed(3)}, ${geometricMeanWithSpread(cpu)}`,
    ],
    [
      "p50 / p99 ms (median)",
      `${median(off.map((r) => r.p50))} / ${median(off.map((r) => r.p99))}`,
      `${median(on.map((r) => r.p50))} / ${median(on.map((r) => r.p99))}`,
      "",
    ],
  ]);
}
