/**
 * What the metrics and the traces cost the gateway (docs/performance.md#metrics-on-the-gateway):
 * the API server with METRICS_TOKEN set (scraped once a round, as Prometheus would), and with
 * tracing on as well (spans sent over OTLP/HTTP to a receiver here that accepts and drops them),
 * against the same server with neither, in rounds that rotate their order, on PostgreSQL. The
 * metrics' bar: within 3 % of the throughput; tracing's cost is reported.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load, type LoadRound } from "./gateway-ratio";
import { geometricMeanWithSpread, median, printTable, processCpuMs } from "./lib";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_SECONDS = 6;
const WARM_UP_SECONDS = 2;
const TOKEN = "bench-metrics-token";

type Variant = "neither" | "metrics" | "traced";
const VARIANTS: Variant[] = ["neither", "metrics", "traced"];

interface CostRound extends LoadRound {
  cpuMicrosPerRequest: number;
}

/** An OTLP/HTTP receiver that takes every export and keeps a count of the spans' bytes only. */
async function spanSink(): Promise<{ url: string; bytes: () => number; close: () => Promise<void> }> {
  let bytes = 0;
  const server = http.createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function round(keys: string[], variant: Variant, sinkUrl: string): Promise<CostRound> {
  const env = { METRICS_TOKEN: variant === "neither" ? "" : TOKEN, ...(variant === "traced" ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } : {}) };
  const server = await startServerProcess("api-server.ts", env);
  try {
    await load(server.base, keys, WARM_UP_SECONDS);
    const cpuBefore = processCpuMs(server.child.pid!);
    const loaded = await load(server.base, keys, ROUND_SECONDS);
    const cpuMs = processCpuMs(server.child.pid!) - cpuBefore;
    if (variant !== "neither") {
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

/** One row of the table: each variant's median and the ratio of `variant` to the neither's, round by round. */
function row(label: string, rounds: Record<Variant, CostRound[]>, read: (r: CostRound) => number, digits = 0): string[] {
  const ratio = (variant: Variant) => rounds[variant].map((r, i) => read(r) / read(rounds.neither[i]!));
  const cell = (variant: Variant) => `median ${median(ratio(variant)).toFixed(3)}, ${geometricMeanWithSpread(ratio(variant))}`;
  return [label, ...VARIANTS.map((variant) => median(rounds[variant].map(read)).toFixed(digits)), cell("metrics"), cell("traced")];
}

export async function benchMetricsCost(): Promise<void> {
  if (!process.env.DATABASE_URL) return console.log("\nMetrics cost: PostgreSQL only (set DATABASE_URL).");
  const { values } = await benchOrganization("Metrics bench");
  const sink = await spanSink();
  const rounds: Record<Variant, CostRound[]> = { neither: [], metrics: [], traced: [] };
  try {
    for (let n = 0; n < ROUNDS; n++) {
      // Which goes first rotates, so a warmer later turn favours none.
      for (let i = 0; i < VARIANTS.length; i++) {
        const variant = VARIANTS[(n + i) % VARIANTS.length]!;
        rounds[variant].push(await round(values, variant, sink.url));
      }
    }
  } finally {
    await sink.close();
  }
  if (sink.bytes() === 0) throw new Error("The traced server sent no spans");
  printTable(
    `## Metrics and traces on the gateway: ${ROUNDS} rotating rounds of ${ROUND_SECONDS} s; METRICS_TOKEN set (one scrape a round), then tracing on too, against neither`,
    [
      ["", "neither", "metrics", "metrics and traces", "metrics / neither", "traces / neither"],
      row("requests/s (median)", rounds, (r) => r.requestsPerSecond),
      row("server CPU µs/request (median)", rounds, (r) => r.cpuMicrosPerRequest),
      row("p50 ms (median)", rounds, (r) => r.p50, 1),
      row("p99 ms (median)", rounds, (r) => r.p99, 1),
    ],
  );
}
