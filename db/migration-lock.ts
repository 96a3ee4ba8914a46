import { AsyncLocalStorage } from "node:async_hooks";
import { withSessionLock } from "./session-lock";

// Any constant shared by every process of this service: schema changes run one process at a time.
const MIGRATION_LOCK = 727_301_001;
// Set while this call chain holds the lock: a nested call (the job queue started by an alert that a
// migration's maintenance raised) runs under it instead of waiting on itself from a second connection.
const holding = new AsyncLocalStorage<true>();

/**
 * Runs `run` while no other process of this service changes the schema: the committed migrations
 * and the job queue's own schema, which processes starting together on a new database would
 * otherwise both find missing and both create (the second failing on what the first made).
 */
export async function withMigrationLock<T>(run: () => Promise<T>): Promise<T> {
  return holding.getStore() ? run() : withSessionLock(MIGRATION_LOCK, () => holding.run(true, run));
}
