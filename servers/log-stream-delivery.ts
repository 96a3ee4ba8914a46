import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { beforeDbClose } from "@/db";
import { log } from "@/core/log";

/** A log stream's events wait at most this long for their batch, beside the 1,000 a batch holds (docs/features/log-streams.md#delivery). */
export const LOG_STREAM_INTERVAL_MS = 2_000;
/** What the process posts its delivery thread when it stops. */
export const STOP_DELIVERY = "stop";
/** Connections of the thread's own pool: one, as delivery waits its turn anyway (docs/operations.md#sizing). */
const THREAD_POOL_SIZE = "1";
/** How long a stopping process waits for the thread's turn to end before it ends the thread. */
const STOP_WAIT_MS = 8_000;

// The thread's file sits beside this module, as the PDF renderer's does (lib/api/services/pdf.ts):
// compiled (scripts/build.mjs), or from the sources (development, tests), where the thread first
// registers tsx itself (a `--import` of the process does not reach a thread's first module on Node 20).
const fromSources = import.meta.url.endsWith(".ts");
const THROUGH_TSX = `import("tsx/esm/api").then(({ register }) => (register(), import(${JSON.stringify(new URL("./log-stream-delivery-thread.ts", import.meta.url).href)})))`;

/**
 * Delivers the organizations' log streams from a thread of this process, of the lowest CPU
 * priority and with a pool of its own, so delivery takes only the CPU the requests leave
 * (docs/features/log-streams.md#delivery). Every process on PostgreSQL runs one; the streams'
 * leases share the streams out. A thread that dies is started again a turn later.
 */
export function startLogStreamDeliveryThread(): void {
  let thread: Worker | null = null;
  let restart: NodeJS.Timeout | undefined;
  let stopping = false;
  const start = () => {
    const started = new Worker(fromSources ? THROUGH_TSX : new URL("./log-stream-delivery-thread.js", import.meta.url), {
      eval: fromSources,
      // The process's flags (its export conditions, when run from the sources) but the one a thread refuses.
      execArgv: process.execArgv.filter((flag) => flag !== "--expose-gc"),
      env: { ...process.env, DATABASE_POOL_SIZE: THREAD_POOL_SIZE },
    });
    thread = started;
    started.unref();
    started.on("error", (error) => log.error({ err: error }, "The log streams' delivery thread failed"));
    started.on("exit", (code) => {
      thread = null;
      if (stopping) return;
      log.error(`The log streams' delivery thread exited (code ${code}); starting another in ${LOG_STREAM_INTERVAL_MS / 1000} seconds`);
      restart = setTimeout(start, LOG_STREAM_INTERVAL_MS).unref();
    });
  };
  start();
  beforeDbClose(async () => {
    stopping = true;
    clearTimeout(restart);
    if (!thread) return;
    const exited = once(thread, "exit");
    thread.postMessage(STOP_DELIVERY);
    // terminate() ends a thread whose turn outlasts the wait, and makes it exit too.
    const deadline = setTimeout(() => void thread?.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(deadline);
  });
}
