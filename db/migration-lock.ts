import { AsyncLocalStorage } from "node:async_hooks";
import { postgresClient } from "./index";

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
  const sql = postgresClient();
  if (!sql || holding.getStore()) return run(); // PGlite has one owning process already
  // A session lock on one reserved connection keeps a second process out while this one migrates.
  const lockConnection = await sql.reserve();
  try {
    await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK})`;
    return await holding.run(true, run);
  } finally {
    await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    lockConnection.release();
  }
}
