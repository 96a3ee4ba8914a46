import os from "node:os";
import { parentPort } from "node:worker_threads";
import { closeDb, getDb } from "@/db";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { log } from "@/core/log";
import { LOG_STREAM_INTERVAL_MS, STOP_DELIVERY } from "./log-stream-delivery";

/**
 * The log streams' delivery thread of a server process on PostgreSQL (servers/log-stream-delivery.ts
 * starts it): its own small pool, and the lowest CPU priority, so the process's requests always
 * come first (docs/features/log-streams.md#delivery). On Linux a priority is the calling thread's alone.
 */
os.setPriority(0, os.constants.priority.PRIORITY_LOW);

let stopping = false;
let turn: Promise<unknown> = Promise.resolve();
let next: NodeJS.Timeout;

/** A turn every LOG_STREAM_INTERVAL_MS after the last one ended, never two at once. */
function schedule(): void {
  next = setTimeout(() => {
    turn = deliverDueStreams(getDb())
      .catch((error: unknown) => log.error({ err: error }, `Delivering log streams failed; it runs again in ${LOG_STREAM_INTERVAL_MS / 1000} seconds`))
      .finally(() => !stopping && schedule());
  }, LOG_STREAM_INTERVAL_MS);
}
schedule();

parentPort!.on("message", async (message: unknown) => {
  if (message !== STOP_DELIVERY) return;
  stopping = true;
  clearTimeout(next);
  // The turn under way ends (its cursors recorded, its leases given back) before the pool closes.
  await turn;
  await closeDb();
  parentPort!.close();
});
