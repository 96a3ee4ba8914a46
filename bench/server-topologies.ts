/**
 * The serving figures of docs/operations.md#every-core, on PostgreSQL, in separate processes, rounds interleaved so drift on
 * a shared machine hits each alike:
 * - /v1 through the one-port server (`server.ts`, Next.js beside the API) ÷ through the API-only
 *   server (`api-server.ts`), one worker each: the one-port tax;
 * - the API-only server on one worker ÷ on one per core (WEB_CONCURRENCY unset).
 * The load generator shares the machine's cores, so the N-worker figure is what is left to gain
 * on this machine, not on one where the clients are elsewhere.
 */
import { availableParallelism } from "node:os";
import { productionBuildExists, startServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load, type LoadRound } from "./gateway-ratio";
import { count, geometricMeanWithSpread, median, ms, printTable } from "./lib";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** What the one-port server needs to start in production mode for a bench. */
export const ONE_PORT_ENV = { AUTH_SECRET: "bench-secret-not-for-production-0123456789", NEXT_TELEMETRY_DISABLED: "1" };

async function round(script: string, env: Record<string, string>, keys: string[]): Promise<LoadRound> {
  const server = await startServerProcess(script, env);
  try {
    await load(server.base, keys, 2);
    return await load(server.base, keys, 6);
  } finally {
    await server.stop();
  }
}

const fmt = (n: number) => count(Math.round(n));
const cells = (r: LoadRound | undefined) => (r ? [fmt(r.requestsPerSecond), ms(r.p50), ms(r.p99)] : ["–", "–", "–"]);

export async function benchServerTopologies(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Serving /v1: skipped (set DATABASE_URL: workers and the one-port server need PostgreSQL)");
    return;
  }
  const onePort = productionBuildExists();
  if (!onePort) console.log("\n(one-port server skipped: no production build; run `npx next build` first)");
  const { values: keys } = await benchOrganization("Topology");

  const cores = availableParallelism();
  const apiOnly: LoadRound[] = [];
  const onePortRounds: LoadRound[] = [];
  const allCores: LoadRound[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const turns = [
      async () => apiOnly.push(await round("api-server.ts", {}, keys)),
      async () => onePort && onePortRounds.push(await round("server.ts", ONE_PORT_ENV, keys)),
      async () => allCores.push(await round("api-server.ts", { WEB_CONCURRENCY: String(cores) }, keys)),
    ];
    // Each server goes first in turn, so a warmer machine favours none.
    for (let t = 0; t < turns.length; t++) await turns[(t + i) % turns.length]!();
  }

  const taxRatios = onePortRounds.map((r, i) => r.requestsPerSecond / apiOnly[i]!.requestsPerSecond);
  const coreRatios = allCores.map((r, i) => r.requestsPerSecond / apiOnly[i]!.requestsPerSecond);
  printTable(`## Serving /v1: GET /v1/products?limit=10, 50 connections, 10 keys, ${ROUNDS} interleaved rounds of 6 s (req/s, p50, p99)`, [
    [
      "round",
      "API-only, 1 worker",
      "p50",
      "p99",
      "one-port, 1 worker",
      "p50",
      "p99",
      `API-only, ${cores} workers`,
      "p50",
      "p99",
      "one-port ÷ API-only",
      `${cores} workers ÷ 1`,
    ],
    ...apiOnly.map((a, i) => [
      String(i + 1),
      ...cells(a),
      ...cells(onePortRounds[i]),
      ...cells(allCores[i]),
      taxRatios[i]?.toFixed(2) ?? "–",
      coreRatios[i]!.toFixed(2),
    ]),
  ]);
  if (onePort) console.log(`one-port ÷ API-only: median ${median(taxRatios).toFixed(2)}, ${geometricMeanWithSpread(taxRatios)} (goal ≥ 0.9)`);
  console.log(
    `${cores} workers ÷ 1 worker: median ${median(coreRatios).toFixed(2)}, ${geometricMeanWithSpread(coreRatios)} (the load generator shares these ${cores} cores)`,
  );
}
