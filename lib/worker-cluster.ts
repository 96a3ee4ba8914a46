import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { wholeNumberFromEnv } from "@/core/env-number";

/**
 * How many worker processes a server runs (SPEC §18): WEB_CONCURRENCY, or one per core. On the
 * embedded database one, whatever was asked: PGlite has a single owning process (db/data-dir-lock.ts),
 * and the notice says so when more were asked for.
 */
export function workerCount(env: Record<string, string | undefined> = process.env): { workers: number; notice: string | null } {
  const asked = wholeNumberFromEnv("WEB_CONCURRENCY", availableParallelism(), "worker processes", { env });
  if (env.DATABASE_URL) return { workers: asked, notice: null };
  const notice =
    env.WEB_CONCURRENCY && asked > 1
      ? `WEB_CONCURRENCY=${asked} asks for ${asked} workers, but the embedded database has a single owning process: running one. Set DATABASE_URL to a PostgreSQL server to run a worker per core.`
      : null;
  return { workers: 1, notice };
}

/** What a worker's start returns: how to stop it, letting the requests it has accepted finish. */
export type StopServing = () => Promise<void>;

/**
 * Runs `start` (migrate, start the services, listen) in `workers` processes that share its port
 * through node:cluster, or in this one process when there is one. The primary prints `ready` once
 * every worker listens, starts a new worker when one dies, and on SIGTERM or SIGINT has each
 * worker drain (stop accepting, finish what it has, close the database) before it exits itself.
 * A worker that dies before it ever listened stops the whole server: a bad setting would
 * otherwise restart forever. `oneProcess`: the development server, whose compiler and hot reload
 * belong to one process.
 */
export async function serveOnWorkers(options: { ready: string; start: () => Promise<StopServing>; oneProcess?: boolean }): Promise<void> {
  if (cluster.isWorker) return onSignals(await options.start());
  const { workers, notice } = options.oneProcess ? { workers: 1, notice: null } : workerCount();
  if (notice) console.warn(notice);
  if (workers === 1) {
    const stop = await options.start();
    console.log(options.ready);
    return onSignals(stop);
  }
  runPrimary(workers, options.ready);
}

function runPrimary(workers: number, ready: string): void {
  const workersLeft = () => Object.keys(cluster.workers ?? {}).length;
  const listening = new Set<Worker>();
  let everyoneListened = false;
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();

  cluster.on("listening", (worker) => {
    listening.add(worker);
    if (!everyoneListened && listening.size === workers) {
      everyoneListened = true;
      console.log(`${ready}, on ${workers} workers (primary pid ${process.pid})`);
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    const listened = listening.delete(worker);
    if (stopping) {
      if (workersLeft() === 0) process.exit();
      return;
    }
    if (!listened) {
      console.error(`A worker (pid ${worker.process.pid}) exited with ${signal ?? code} before it listened; stopping the server.`);
      stopAll("SIGTERM", 1);
      return;
    }
    console.error(`Worker pid ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another.`);
    cluster.fork();
  });

  const stopAll = (signal: NodeJS.Signals, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining ${workersLeft()} workers…`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    process.exitCode = exitCode;
    if (workersLeft() === 0) process.exit();
  };
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));
}

/** On SIGINT or SIGTERM (the first of them; a terminal's Ctrl-C reaches the primary and the workers): drain, then exit. */
function onSignals(stop: StopServing): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (cluster.isPrimary) console.log(`${signal}: shutting down…`);
    try {
      await stop();
      process.exit(0);
    } catch (error) {
      console.error("Shutting down failed", error);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
