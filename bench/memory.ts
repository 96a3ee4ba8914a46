/**
 * What compiling the servers saves (`npm start` runs dist/ under plain node; it ran the sources
 * through tsx's loader before): each server process's resident memory right after it is ready and
 * after 1,000 `/v1` requests, from the sources through tsx and compiled, side by side. On
 * PostgreSQL, with one worker of each kind: npm start's primary, its front worker (the API) and
 * the dashboard worker behind it, and npm run start:api's one process.
 */
import { readFileSync } from "node:fs";
import { deliveryPids, productionBuildExists, startServerProcess, workerPids, type ServerRuntime } from "@/tests/helpers/server-process";
import { benchOrganization } from "./gateway-ratio";
import { count, mib, printTable, runLoad } from "./lib";
import { ONE_PORT_ENV } from "./server-topologies";

const REQUESTS = 1_000;
const CONCURRENCY = 10;

/** Resident memory of a process, in bytes (Linux /proc). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("VmRSS:"));
  return Number(line!.split(/\s+/)[1]) * 1024;
}

/** The processes of the server whose first process is `pid`, by what each does, in a stable order. */
function processesOf(script: string, pid: number): [string, number][] {
  const workers = workerPids(pid).map((worker): [string, number] => {
    const role = readFileSync(`/proc/${worker}/environ`, "utf8")
      .split("\0")
      .find((entry) => entry.startsWith("INVOICING_WORKER_ROLE="));
    return [`${script}: ${role?.endsWith("back") ? "dashboard worker" : "front worker (API)"}`, worker];
  });
  // On PostgreSQL each process that serves the API has its log streams' delivery process beside it.
  const deliveries = [pid, ...workers.map(([, worker]) => worker)]
    .flatMap(deliveryPids)
    .map((delivery): [string, number] => [`${script}: log streams' delivery`, delivery]);
  if (workers.length === 0) return [[`${script}: its one process`, pid], ...deliveries];
  return [[`${script}: primary`, pid], ...workers.sort(([a], [b]) => (a < b ? -1 : 1)), ...deliveries];
}

/** Resident memory by process label, after start and after the requests, for one server run one way. */
async function measure(script: string, runtime: ServerRuntime, key: string): Promise<Map<string, { start: number; loaded: number }>> {
  const server = await startServerProcess(script, { ...ONE_PORT_ENV, WEB_CONCURRENCY: "1" }, undefined, [], runtime);
  try {
    const processes = processesOf(script, server.child.pid!);
    const start = processes.map(([, pid]) => residentBytes(pid));
    const load = await runLoad(`${server.base}/v1/products?limit=10`, { headers: { "X-API-Key": key } }, REQUESTS, CONCURRENCY);
    if (load.statuses.get(200) !== REQUESTS) throw new Error(`${script} (${runtime}) answered ${[...load.statuses].join(" ")}`);
    return new Map(processes.map(([label, pid], i) => [label, { start: start[i]!, loaded: residentBytes(pid) }]));
  } finally {
    await server.stop();
  }
}

export async function benchMemory(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Memory per process: skipped (set DATABASE_URL: npm start runs its workers and start:api at all on PostgreSQL)");
    return;
  }
  const scripts = productionBuildExists() ? ["server.ts", "api-server.ts"] : ["api-server.ts"];
  if (scripts.length === 1) console.log("\n(server.ts skipped: no production build; run `npm run build` first)");
  const { values } = await benchOrganization("Memory", 1);
  const rows: string[][] = [];
  for (const script of scripts) {
    // One after the other: the two would share the machine's cores and the database.
    const tsx = await measure(script, "tsx", values[0]!);
    const compiled = await measure(script, "compiled", values[0]!);
    for (const [label, before] of tsx) {
      const after = compiled.get(label)!;
      rows.push([
        label,
        mib(before.start),
        mib(after.start),
        mib(after.start - before.start),
        mib(before.loaded),
        mib(after.loaded),
        mib(after.loaded - before.loaded),
      ]);
    }
  }
  printTable(
    `## Memory per process (resident): from the sources through tsx against compiled (dist/), after start and after ${count(REQUESTS)} GET /v1/products (${CONCURRENCY} at a time)`,
    [["process", "tsx, started", "compiled, started", "change", `tsx, after ${count(REQUESTS)}`, `compiled, after ${count(REQUESTS)}`, "change"], ...rows],
  );
}
