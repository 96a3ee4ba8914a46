import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import os, { availableParallelism } from "node:os";
import path from "node:path";
import { wholeNumberFromEnv } from "@/core/env-number";
import { gatherWorkerMetrics } from "./cluster-metrics";
import { log } from "@/core/log";
import { parsePostgresUrl, socketDirectory } from "@/db/postgres-url";

/** Whether a PostgreSQL URL names this machine: a loopback or own address (no host reads as localhost), or a Unix socket (a `host` path). */
export function databaseOnThisMachine(databaseUrl: string): boolean {
  let url: URL;
  try {
    url = parsePostgresUrl(databaseUrl);
  } catch {
    return false;
  }
  if (socketDirectory(url)) return true;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1" || host.startsWith("127.")) return true;
  return Object.values(os.networkInterfaces()).some((addresses) => addresses?.some((address) => address.address === host));
}

/**
 * How many worker processes a server runs (docs/operations.md#sizing): WEB_CONCURRENCY, or one per
 * core, less the one PostgreSQL needs when it runs on this machine (there one worker a core served
 * less than one worker fewer: docs/performance.md#the-gateways-own-cost). On the embedded database
 * one, whatever was asked: PGlite has a single owning process (db/locks/data-dir.ts), and the notice
 * says so when more were asked for.
 */
export function workerCount(env: Record<string, string | undefined> = process.env, cores = availableParallelism()): { workers: number; notice: string | null } {
  if (env.DATABASE_URL) {
    const byCores = databaseOnThisMachine(env.DATABASE_URL) ? Math.max(1, cores - 1) : cores;
    return { workers: wholeNumberFromEnv("WEB_CONCURRENCY", byCores, "worker processes", { env }), notice: null };
  }
  const asked = wholeNumberFromEnv("WEB_CONCURRENCY", 1, "worker processes", { env });
  const notice =
    env.WEB_CONCURRENCY && asked > 1
      ? `WEB_CONCURRENCY=${asked} asks for ${asked} workers, but the embedded database has a single owning process: running one. Set DATABASE_URL to a PostgreSQL server to run a worker per core.`
      : null;
  return { workers: 1, notice };
}

/** What a worker's start returns: how to stop it, letting the requests it has accepted finish. */
export type StopServing = () => Promise<void>;

/**
 * A server of two kinds of worker: the `front` ones share the public port and hand the requests
 * that are not theirs to the `back` ones, as many, which share a Unix socket in a directory of the
 * primary's that only its user can open (so what reaches the socket came through a front).
 */
export interface SplitWorkers {
  front: (socketPath: string) => Promise<StopServing>;
  back: (socketPath: string) => Promise<StopServing>;
  /** What the back workers serve, for the ready line: "dashboard". */
  backName: string;
}

/** What the primary tells a worker it forks: which kind it is, and the socket between the kinds. */
const ROLE_ENV = "INVOICING_WORKER_ROLE";
const SOCKET_ENV = "INVOICING_WORKER_SOCKET";

/** Workers forked alike: how many, and what their environment adds to the primary's. */
interface WorkerGroup {
  count: number;
  env: Record<string, string>;
}

/**
 * Runs `start` (migrate, start the services, listen) in `workers` processes that share its port
 * through node:cluster, or in this one process when there is one; with `split`, `workers` front
 * and as many back workers instead, however many `workers` is. The primary prints `ready` once
 * every worker listens, starts a new worker of the same kind when one dies, and on SIGTERM or
 * SIGINT has each worker drain (stop accepting, finish what it has, close the database) before
 * it exits itself. A worker that dies before it ever listened stops the whole server: a bad
 * setting would otherwise restart forever. `oneProcess`: the development server, whose compiler
 * and hot reload belong to one process.
 */
export async function serveOnWorkers(options: { ready: string; start: () => Promise<StopServing>; oneProcess?: boolean; split?: SplitWorkers }): Promise<void> {
  if (cluster.isWorker) return onSignals(await startWorker(options.start, options.split));
  const { workers, notice } = options.oneProcess ? { workers: 1, notice: null } : workerCount();
  if (notice) log.warn(notice);
  const split = options.oneProcess ? undefined : options.split;
  if (split) {
    const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "invoicing-"));
    process.on("exit", () => fs.rmSync(socketDir, { recursive: true, force: true }));
    const socket = { [SOCKET_ENV]: path.join(socketDir, `${split.backName}.sock`) };
    const groups = [
      { count: workers, env: { ...socket, [ROLE_ENV]: "front" } },
      { count: workers, env: { ...socket, [ROLE_ENV]: "back" } },
    ];
    return runPrimary(
      groups,
      `${options.ready}, on ${workersOf(workers)} and ${workersOf(workers, split.backName)} behind ${workers === 1 ? "it" : "them"} (primary pid ${process.pid})`,
    );
  }
  if (workers === 1) {
    const stop = await options.start();
    log.info(options.ready);
    return onSignals(stop);
  }
  runPrimary([{ count: workers, env: {} }], `${options.ready}, on ${workersOf(workers)} (primary pid ${process.pid})`);
}

const workersOf = (count: number, kind = "") => `${count} ${kind ? `${kind} ` : ""}worker${count === 1 ? "" : "s"}`;

function startWorker(start: () => Promise<StopServing>, split: SplitWorkers | undefined): Promise<StopServing> {
  const socketPath = process.env[SOCKET_ENV];
  if (!split || !socketPath) return start();
  return process.env[ROLE_ENV] === "back" ? split.back(socketPath) : split.front(socketPath);
}

function runPrimary(groups: WorkerGroup[], ready: string): void {
  gatherWorkerMetrics();
  const workersLeft = () => Object.keys(cluster.workers ?? {}).length;
  const total = groups.reduce((sum, group) => sum + group.count, 0);
  // Which group each worker is of, so a replacement is of the same kind.
  const envOf = new Map<Worker, Record<string, string>>();
  const fork = (env: Record<string, string>) => envOf.set(cluster.fork(env), env);
  const listening = new Set<Worker>();
  let everyoneListened = false;
  let stopping = false;
  for (const group of groups) for (let i = 0; i < group.count; i++) fork(group.env);

  cluster.on("listening", (worker) => {
    listening.add(worker);
    if (!everyoneListened && listening.size === total) {
      everyoneListened = true;
      log.info(ready);
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    const listened = listening.delete(worker);
    const env = envOf.get(worker)!;
    envOf.delete(worker);
    if (stopping) {
      stopNextGroup();
      return;
    }
    if (!listened) {
      log.error(`A worker (pid ${worker.process.pid}) exited with ${signal ?? code} before it listened; stopping the server.`);
      stopAll("SIGTERM", 1);
      return;
    }
    log.error(`Worker pid ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another.`);
    fork(env);
  });

  // Group by group, in order: the front workers finish the requests they hold, proxied ones
  // included, before the workers behind them are asked to stop.
  const signalled = new Set<WorkerGroup>();
  const stopNextGroup = () => {
    const group = groups.find((candidate) => [...envOf.values()].includes(candidate.env));
    if (!group) process.exit();
    if (signalled.has(group)) return;
    signalled.add(group);
    for (const [worker, env] of envOf) if (env === group.env) worker.process.kill("SIGTERM");
  };
  const stopAll = (signal: NodeJS.Signals, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: draining ${workersLeft()} workers…`);
    process.exitCode = exitCode;
    stopNextGroup();
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
    if (cluster.isPrimary) log.info(`${signal}: shutting down…`);
    try {
      await stop();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "Shutting down failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
