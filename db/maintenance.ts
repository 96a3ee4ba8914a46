import type { DbOrTx } from "./index";
import { maintainRequestLog } from "./partitions";
import { watchKeyExpiries } from "./key-expiries";
import { foldPendingRollups } from "./rollup-fold";
import { buildUsageSnapshots } from "./usage-snapshots";

const REQUEST_LOG_INTERVAL_MS = 6 * 3600_000;
// The gateway refuses an expired key on its own at once; this only bounds how late its
// "expired" history entry (dated at the expiry itself) and its alerts appear.
const KEY_EXPIRY_INTERVAL_MS = 5 * 60_000;
// Reads add the requests not yet folded, so this bounds only how many they add: a second's traffic.
const ROLLUP_FOLD_INTERVAL_MS = 1000;
// A period is snapshotted SNAPSHOT_GRACE_MS after it ends at the soonest; until then reads take its rollup rows.
const SNAPSHOT_INTERVAL_MS = 60_000;

function every(intervalMs: number, what: string, run: () => Promise<unknown>): void {
  setInterval(() => {
    const again = intervalMs < 60_000 ? `${intervalMs / 1000} seconds` : `${intervalMs / 60_000} minutes`;
    run().catch((error: unknown) => console.error(`${what} failed; it runs again in ${again}`, error));
  }, intervalMs).unref();
}

/** The background work of a server process (both also run at start-up, in migrateDatabase); the timers never keep it alive. */
export function scheduleMaintenance(db: () => DbOrTx): void {
  every(REQUEST_LOG_INTERVAL_MS, "Request-log maintenance", () => maintainRequestLog(db()));
  every(KEY_EXPIRY_INTERVAL_MS, "Recording key expiries and their alerts", () => watchKeyExpiries(db()));
  every(ROLLUP_FOLD_INTERVAL_MS, "Folding pending requests into the usage rollups", () => foldPendingRollups(db()));
  every(SNAPSHOT_INTERVAL_MS, "Snapshotting closed hours and days of usage", () => buildUsageSnapshots(db()));
}
