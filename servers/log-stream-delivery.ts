import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { beforeDbClose } from "@/db";
import { log } from "@/core/log";

/** A log stream's events wait at most this long for their batch, beside the 1,000 a batch holds (docs/features/log-streams.md#delivery). */
export const LOG_STREAM_INTERVAL_MS = 2_000;
/** What the server tells its delivery process when it stops. */
export const STOP_DELIVERY = "stop";
/** Connections of the delivery process's pool: one, as delivery waits its turn anyway (docs/operations.md#sizing). */
const DELIVERY_POOL_SIZE = "1";
/** How long a stopping server waits for the delivery's turn to end before it ends the process. */
const STOP_WAIT_MS = 8_000;

// The process's file sits beside this module, compiled (scripts/build.mjs) or, run from the
// sources (development, tests), through tsx as the server itself is.
const fromSources = import.meta.url.endsWith(".ts");
const ENTRY = fileURLToPath(new URL(fromSources ? "./log-stream-delivery-process.ts" : "./log-stream-delivery-process.js", import.meta.url));
// Its own flags, not the server's: what a server preloads (the e2e servers' session clock, which
// listens on a port) is the server's alone. From the sources, the development loader's.
const DELIVERY_FLAGS = fromSources ? ["--conditions=react-server", "--import", "tsx"] : process.sourceMapsEnabled ? ["--enable-source-maps"] : [];

/** The server's environment, its pool's size aside, and not as a cluster's worker: node:cluster marks its workers so. */
function deliveryEnvironment(): NodeJS.ProcessEnv {
  const { NODE_UNIQUE_ID: _worker, ...env } = process.env;
  return { ...env, DATABASE_POOL_SIZE: DELIVERY_POOL_SIZE };
}

/**
 * Delivers the organizations' log streams from a process of this server's own, in a session of
 * its own at the lowest CPU priority, with one connection, so delivery takes only the CPU the
 * requests leave (docs/features/log-streams.md#delivery). Every server process on PostgreSQL has
 * one; the streams' leases share the streams out. One that dies is started again a turn later;
 * it ends with the server, even one killed outright (its IPC channel closes).
 */
export function startLogStreamDeliveryProcess(): void {
  let child: ChildProcess | null = null;
  let restart: NodeJS.Timeout | undefined;
  let stopping = false;
  const start = () => {
    const started = fork(ENTRY, [], {
      // A session of its own: Linux schedules a session's processes as one group, whose priority it lowers.
      detached: true,
      execArgv: DELIVERY_FLAGS,
      env: deliveryEnvironment(),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child = started;
    // Neither the process nor its channel keeps the server running.
    started.unref();
    started.channel?.unref();
    started.on("error", (error) => log.error({ err: error }, "The log streams' delivery process failed"));
    started.on("exit", (code, signal) => {
      child = null;
      if (stopping) return;
      log.error(`The log streams' delivery process exited (${signal ?? `code ${code}`}); starting another in ${LOG_STREAM_INTERVAL_MS / 1000} seconds`);
      restart = setTimeout(start, LOG_STREAM_INTERVAL_MS).unref();
    });
  };
  start();
  beforeDbClose(async () => {
    stopping = true;
    clearTimeout(restart);
    if (!child) return;
    const exited = once(child, "exit");
    child.send(STOP_DELIVERY);
    const deadline = setTimeout(() => child?.kill("SIGKILL"), STOP_WAIT_MS);
    await exited;
    clearTimeout(deadline);
  });
}
