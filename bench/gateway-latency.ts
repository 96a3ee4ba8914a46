/**
 * The gateway's own cost as a client feels it (docs/performance.md#the-gateways-own-cost): the API
 * server (compiled, one worker) against the bare route at 1, 10 and 50 connections, in interleaved
 * rounds on PostgreSQL, and where the gateway's time goes at one connection, from the
 * `Server-Timing` every /v1 answer carries. `npm run bench -- --only=gateway-latency`.
 */
import { startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization } from "./gateway-ratio";
import { count, loadCells, median, ms, percentile, printTable, runLoad, statusesText } from "./lib";

const CONNECTIONS = [1, 10, 50] as const;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const WARM_UP_SECONDS = 2;
const PATH = "/v1/products?limit=10";

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  /** Each Server-Timing entry's median milliseconds (the gateway's answers only). */
  phases: Record<string, number>;
}

/** `connections` loops for `seconds` (runLoad), cycling through `keys`, with the gateway's phases from each answer's Server-Timing. */
async function closedLoop(url: string, keys: string[], connections: number, seconds: number): Promise<Measured> {
  const phaseSamples = new Map<string, number[]>();
  const collectPhases = (response: Response) => {
    for (const entry of response.headers.get("server-timing")?.split(", ") ?? []) {
      const [name, duration] = entry.split(";dur=");
      if (!phaseSamples.has(name!)) phaseSamples.set(name!, []);
      phaseSamples.get(name!)!.push(Number(duration));
    }
  };
  const load = await runLoad(url, (request) => ({ headers: { "x-api-key": keys[request % keys.length]! } }), { seconds }, connections, collectPhases);
  const phases = Object.fromEntries([...phaseSamples].map(([name, samples]) => [name, median(samples)]));
  return {
    requestsPerSecond: load.requests / (load.elapsedMs / 1000),
    p50: percentile(load.latencies, 50),
    p99: percentile(load.latencies, 99),
    statuses: Object.fromEntries(load.statuses),
    phases,
  };
}

/** One server's turn in a round: warmed up, then measured at each connection count. */
async function serverTurn(start: () => Promise<ServerProcess>, keys: string[]): Promise<Measured[]> {
  const server = await start();
  try {
    await closedLoop(server.base + PATH, keys, 10, WARM_UP_SECONDS);
    const measured: Measured[] = [];
    for (const connections of CONNECTIONS) measured.push(await closedLoop(server.base + PATH, keys, connections, ROUND_SECONDS));
    return measured;
  } finally {
    await server.stop();
  }
}

/** The gateway's worker counts to measure (BENCH_WORKERS, "1,2"): one by default. */
function workerCounts(): number[] {
  return (process.env.BENCH_WORKERS ?? "1").split(",").map(Number);
}

export async function benchGatewayLatency(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Gateway latency: skipped (set DATABASE_URL: it measures separate processes on PostgreSQL)");
    return;
  }
  const { org, values } = await benchOrganization("Latency");
  const workers = workerCounts();
  const gateways = workers.map((n) => ({
    label: `gateway, ${n} worker${n === 1 ? "" : "s"}`,
    turns: [] as Measured[][],
    start: () => startServerProcess("api-server.ts", { WEB_CONCURRENCY: String(n) }),
  }));
  // Another checkout's gateway (with its own node_modules) on one worker, in the same rounds: an A/B of a change.
  const baselineDir = process.env.BENCH_BASELINE_DIR;
  if (baselineDir) {
    gateways.push({ label: "baseline, 1 worker", turns: [], start: () => startServerProcess("api-server.ts", { WEB_CONCURRENCY: "1" }, baselineDir) });
  }
  const bare: Measured[][] = [];
  const startBare = () => startServerProcess("bench/bare-handler-server.ts", { BENCH_ORG_ID: org.id });
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates, so drift on a shared machine favours neither.
    if (round % 2 === 0) bare.push(await serverTurn(startBare, values));
    for (const gateway of gateways) gateway.turns.push(await serverTurn(gateway.start, values));
    if (round % 2 === 1) bare.push(await serverTurn(startBare, values));
  }

  const fmt = (n: number) => count(Math.round(n));
  for (const gateway of gateways) {
    printTable(
      `## Gateway latency: GET ${PATH}, ${gateway.label}, ${values.length} keys of an Enterprise organization, ${ROUNDS} rounds of ${ROUND_SECONDS} s`,
      [
        ["connections", "round", "gateway req/s", "p50", "p99", "bare req/s", "p50", "p99", "gateway ÷ bare", "added p50", "added p99"],
        ...CONNECTIONS.flatMap((connections, c) =>
          gateway.turns.map((turn, round) => {
            const g = turn[c]!;
            const b = bare[round]![c]!;
            return [
              String(connections),
              String(round + 1),
              ...loadCells(g, b),
              (g.requestsPerSecond / b.requestsPerSecond).toFixed(2),
              ms(g.p50 - b.p50),
              ms(g.p99 - b.p99),
            ];
          }),
        ),
      ],
    );
  }
  const phaseNames = Object.keys(gateways[0]!.turns[0]![0]!.phases);
  printTable("## Medians of the rounds", [
    ["gateway", "connections", "req/s", "gateway ÷ bare", "added p50", "added p99", ...phaseNames.map((name) => `${name} (Server-Timing p50)`), "statuses"],
    ...gateways.flatMap((gateway) =>
      CONNECTIONS.map((connections, c) => {
        const of = (pick: (g: Measured, b: Measured) => number) => median(gateway.turns.map((turn, round) => pick(turn[c]!, bare[round]![c]!)));
        return [
          gateway.label,
          String(connections),
          fmt(of((g) => g.requestsPerSecond)),
          of((g, b) => g.requestsPerSecond / b.requestsPerSecond).toFixed(2),
          ms(of((g, b) => g.p50 - b.p50)),
          ms(of((g, b) => g.p99 - b.p99)),
          ...phaseNames.map((name) => ms(of((g) => g.phases[name] ?? Number.NaN))),
          gateway.turns.map((turn) => statusesText(turn[c]!.statuses)).join("; "),
        ];
      }),
    ),
  ]);
}
