import { fileURLToPath } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { getDb, postgresClient } from "./index";
import { withMigrationLock } from "./migration-lock";
import { maintainRequestLog } from "./partitions";

// Beside this module: db/migrations from the sources, dist/migrations in the compiled servers
// (scripts/build.mjs copies them there), whatever directory the process was started in.
const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Applies the committed drizzle-kit migrations (idempotent), then the request log's partitions and
 * retention.
 */
export async function migrateDatabase(): Promise<void> {
  await withMigrationLock(async () => {
    const db = getDb();
    if (postgresClient()) await migratePostgres(db as unknown as PostgresJsDatabase, { migrationsFolder });
    else await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    await maintainRequestLog(db);
  });
}
