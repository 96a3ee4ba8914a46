import { closeDb, getDb } from "@/db";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { log } from "@/core/log";
import { LOG_STREAM_INTERVAL_MS, STOP_DELIVERY } from "./log-stream-delivery";
import { lowestPriority } from "./lowest-priority";

/**
 * The log streams' delivery process of a server process on PostgreSQL (servers/log-stream-delivery.ts
 * forks it in a session of its own), at the lowest CPU priority, so it takes only the CPU the
 * servers and PostgreSQL leave (docs/features/log-streams.md#delivery).
 */
lowestPriority();

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

/** The turn under way ends (its cursors recorded, its leases given back) before the pool closes. */
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearTimeout(next);
  await turn;
  await closeDb();
  process.exit(0);
}

process.on("message", (message) => message === STOP_DELIVERY && void stop());
// The server that forked it is gone (even killed outright): so is its delivery. It may have gone
// while this process was still loading, before anyone listened.
process.on("disconnect", () => void stop());
if (!process.connected) void stop();
