/**
 * What key budgets cost the gateway, on PostgreSQL, one server process under the same load as the
 * gateway ratio (50 connections, GET /v1/products?limit=10):
 * - the bar: ten keys of which one has a budget, against ten keys without;
 * - the worst case: one key with a budget taking the whole load, against one key without (its
 *   budget row is then as hot as the key's minute).
 * Each comparison alternates the load between its two sets of keys in short slices, the order
 * flipping each pair: the machine's speed drifts by ±20 % over minutes on a shared host, much less
 * over a few seconds, so each pair compares the two under the same conditions.
 */
import { insertKey } from "@/tests/helpers/factories";
import { startServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load, type LoadRound } from "./gateway-ratio";
import { count, geometricMeanWithSpread, median, ms, printTable, processCpuMs } from "./lib";

const PAIRS = Number(process.env.BENCH_PAIRS ?? 40);
const SLICE_SECONDS = 2;
const BUDGET = { limit: 1_000_000_000, period: "month" } as const;

interface Slice extends LoadRound {
  cpuMicrosPerRequest: number;
}

async function slice(server: { base: string; child: { pid?: number } }, keys: string[]): Promise<Slice> {
  const cpuBefore = processCpuMs(server.child.pid!);
  const round = await load(server.base, keys, SLICE_SECONDS);
  const responses = Object.values(round.statuses).reduce((sum, n) => sum + n, 0);
  if (responses !== (round.statuses["200"] ?? 0)) throw new Error(`Key budget bench: not every answer was 200: ${JSON.stringify(round.statuses)}`);
  return { ...round, cpuMicrosPerRequest: ((processCpuMs(server.child.pid!) - cpuBefore) * 1000) / responses };
}

/** PAIRS pairs of slices, `withBudget`'s keys and `without`'s taking turns to go first, then their table. */
async function compare(server: { base: string; child: { pid?: number } }, title: string, withBudget: string[], without: string[]): Promise<void> {
  const budgeted: Slice[] = [];
  const plain: Slice[] = [];
  await slice(server, withBudget);
  await slice(server, without);
  for (let pair = 0; pair < PAIRS; pair++) {
    const turns = [async () => plain.push(await slice(server, without)), async () => budgeted.push(await slice(server, withBudget))];
    for (const turn of pair % 2 === 0 ? turns : turns.reverse()) await turn();
  }
  const fmt = (n: number) => count(Math.round(n));
  const ratios = budgeted.map((b, i) => b.requestsPerSecond / plain[i]!.requestsPerSecond);
  const cpuRatios = budgeted.map((b, i) => b.cpuMicrosPerRequest / plain[i]!.cpuMicrosPerRequest);
  printTable(`## ${title}: ${PAIRS} pairs of ${SLICE_SECONDS} s slices`, [
    ["pair", "budget req/s", "p50", "p99", "µs CPU / request", "no budget req/s", "p50", "p99", "µs CPU / request", "budget ÷ none"],
    ...budgeted.map((b, i) => {
      const n = plain[i]!;
      return [
        String(i + 1),
        fmt(b.requestsPerSecond),
        ms(b.p50),
        ms(b.p99),
        fmt(b.cpuMicrosPerRequest),
        fmt(n.requestsPerSecond),
        ms(n.p50),
        ms(n.p99),
        fmt(n.cpuMicrosPerRequest),
        ratios[i]!.toFixed(2),
      ];
    }),
  ]);
  console.log(`budget ÷ none: median ${median(ratios).toFixed(2)}, ${geometricMeanWithSpread(ratios)} (goal: within 5 %, ≥ 0.95)`);
  console.log(`server CPU per request, budget ÷ none: median ${median(cpuRatios).toFixed(2)}, ${geometricMeanWithSpread(cpuRatios)}`);
}

export async function benchKeyBudget(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Key budget: skipped (set DATABASE_URL: it measures separate processes on PostgreSQL)");
    return;
  }
  const { org, values } = await benchOrganization("Budget");
  const oneOfTen = [...values.slice(1), (await insertKey(org.id, { name: "Budget one of ten", budget: BUDGET })).value];
  const single = (await insertKey(org.id, { name: "Budget none" })).value;
  const singleBudgeted = (await insertKey(org.id, { name: "Budget whole load", budget: BUDGET })).value;
  const server = await startServerProcess("api-server.ts", {});
  try {
    await compare(server, "Ten keys of an Enterprise organization, one of them with a monthly budget, against ten without", oneOfTen, values);
    await compare(server, "One key taking the whole load, with a monthly budget, against one key without", [singleBudgeted], [single]);
  } finally {
    await server.stop();
  }
}
