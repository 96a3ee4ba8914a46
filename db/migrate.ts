import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { getDb, postgresClient } from "./index";
import { maintainRequestLog } from "./partitions";
import { watchKeyExpiries } from "./key-expiries";

const migrationsFolder = path.join(process.cwd(), "db", "migrations");
// Any constant shared by every process of this service: migrations run one process at a time.
const MIGRATION_LOCK = 727_301_001;

async function withMigrationLock(run: () => Promise<void>): Promise<void> {
  const sql = postgresClient();
  if (!sql) return run(); // PGlite has one owning process already
  // A session lock on one reserved connection keeps a second process out while this one migrates.
  const lockConnection = await sql.reserve();
  try {
    await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await run();
  } finally {
    await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    lockConnection.release();
  }
}

/**
 * Applies the committed drizzle-kit migrations (idempotent), then the request log's partitions and
 * retention, and the history entries and alerts of keys that expired (or are about to) while no
 * process was running.
 */
export async function migrateDatabase(): Promise<void> {
  await withMigrationLock(async () => {
    const db = getDb();
    if (postgresClient()) await migratePostgres(db as unknown as PostgresJsDatabase, { migrationsFolder });
    else await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    await maintainRequestLog(db);
    await watchKeyExpiries(db);
  });
}
