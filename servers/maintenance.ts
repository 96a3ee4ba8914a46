import { databaseKind, type DbOrTx } from "@/db";
import { maintainRequestLog } from "@/db/partitions";
import { foldPendingRollups } from "@/db/rollups/fold";
import { trySessionLock } from "@/db/locks/session";
import { watchKeyExpiries } from "@/lib/keys/expiry-watch";
import { buildUsageSnapshots } from "@/lib/usage/snapshots";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { exportRequestLog } from "@/lib/analytics/export";
import { clickhouseUrl } from "@/db/clickhouse/client";
import { log } from "@/core/log";
import { LOG_STREAM_INTERVAL_MS, startLogStreamDeliveryProcess } from "./log-stream-delivery";

const REQUEST_LOG_INTERVAL_MS = 6 * 3600_000;
// The gateway refuses an expired key on its own at once; this only bounds how late its
// "expired" history entry (dated at the expiry itself) and its alerts appear.
const KEY_EXPIRY_INTERVAL_MS = 5 * 60_000;
// Reads add the requests not yet folded, so this bounds only how many they add: a second's traffic.
const ROLLUP_FOLD_INTERVAL_MS = 1000;
// Usage reads take the rows not exported yet from PostgreSQL, so this bounds only how many they take there.
const ANALYTICS_EXPORT_INTERVAL_MS = 1000;
// A period is snapshotted SNAPSHOT_GRACE_MS after it ends at the soonest; until then reads take its rollup rows.
const SNAPSHOT_INTERVAL_MS = 60_000;

/**
 * The locked tasks' runs in this process, one after another: a run holds a connection of the pool
 * for its lock while its work takes another, so two at once on a small pool held every connection
 * and each waited for one (with DATABASE_POOL_SIZE=3, the pool's one connection beside the lanes).
 */
let lockedRuns: Promise<unknown> = Promise.resolve();

/**
 * Each task at most once at a time across every process of the service (workers, machines): a
 * run that finds the last one still going in this process, or the task's lock held by another,
 * is skipped; the next tick tries again. Runs of different tasks in this process wait their turn.
 */
export function exclusiveTask(lock: number, run: () => Promise<unknown>): () => Promise<"ran" | "skipped"> {
  let running = false;
  return async () => {
    if (running) return "skipped";
    running = true;
    try {
      const turn = lockedRuns.then(() => trySessionLock(lock, async () => void (await run())));
      lockedRuns = turn.catch(() => undefined);
      return await turn;
    } finally {
      running = false;
    }
  };
}

function every(intervalMs: number, what: string, lock: number, run: () => Promise<unknown>): void {
  const runAlone = exclusiveTask(lock, run);
  setInterval(() => {
    const again = intervalMs < 60_000 ? `${intervalMs / 1000} seconds` : `${intervalMs / 60_000} minutes`;
    runAlone().catch((error: unknown) => log.error({ err: error }, `${what} failed; it runs again in ${again}`));
  }, intervalMs).unref();
}

/**
 * A task every process runs, one run at a time in the process, with no lock of the service: what
 * it works on it takes row by row (log streams lease each stream), so it holds no connection of
 * the pool while it waits, as a session lock would.
 */
function everyInThisProcess(intervalMs: number, what: string, run: () => Promise<unknown>): void {
  let running = false;
  setInterval(() => {
    if (running) return;
    running = true;
    run()
      .catch((error: unknown) => log.error({ err: error }, `${what} failed; it runs again in ${intervalMs / 1000} seconds`))
      .finally(() => (running = false));
  }, intervalMs).unref();
}

// Shared by every process of this service, one per task (db/locks/session.ts).
const LOCKS = { requestLog: 727_301_010, keyExpiries: 727_301_011, snapshots: 727_301_013 } as const;

/** The background work of a server process (the request log's and the expiries' also run at start-up, servers/server-boot.ts); the timers never keep it alive. */
export function scheduleMaintenance(db: () => DbOrTx): void {
  every(REQUEST_LOG_INTERVAL_MS, "Request-log maintenance", LOCKS.requestLog, () => maintainRequestLog(db()));
  every(KEY_EXPIRY_INTERVAL_MS, "Recording key expiries and their alerts", LOCKS.keyExpiries, () => watchKeyExpiries(db()));
  every(SNAPSHOT_INTERVAL_MS, "Snapshotting closed hours and days of usage", LOCKS.snapshots, () => buildUsageSnapshots(db()));
  // The fold's statement takes its own transaction lock and does nothing when another fold holds it (db/rollups/fold.ts).
  everyInThisProcess(ROLLUP_FOLD_INTERVAL_MS, "Folding pending requests into the usage rollups", () => foldPendingRollups(db()));
  // Its lease, not a session lock, keeps it to one run across processes: a run waiting on the store holds no connection (lib/analytics/export.ts).
  if (clickhouseUrl()) everyInThisProcess(ANALYTICS_EXPORT_INTERVAL_MS, "Exporting the request log to ClickHouse", () => exportRequestLog(db()));
  // On the embedded database, whose one client lives on this thread, delivery runs on its event loop.
  if (databaseKind() === "postgres") startLogStreamDeliveryProcess();
  else everyInThisProcess(LOG_STREAM_INTERVAL_MS, "Delivering log streams", () => deliverDueStreams(db()));
}
