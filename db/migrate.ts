import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { getDb, postgresClient } from "./index";
import { withMigrationLock } from "./locks/migration";
import { maintainRequestLog } from "./partitions";
import { rowsOf } from "./rows";
import { sealStoredWebhookCredentials } from "./webhook-credentials";

// Beside this module: db/migrations from the sources, dist/migrations in the compiled servers
// (scripts/build.mjs copies them there), whatever directory the process was started in.
const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Applies the committed drizzle-kit migrations (idempotent), then their data step: the webhook
 * credentials stored before sealing are sealed, which SQL cannot do (docs/security.md#secrets-at-rest);
 * then the request log's partitions and retention.
 */
export async function migrateDatabase(): Promise<void> {
  await withMigrationLock(async () => {
    const db = getDb();
    if (postgresClient()) await migratePostgres(db as unknown as PostgresJsDatabase, { migrationsFolder });
    else await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    await sealStoredWebhookCredentials(db);
    await maintainRequestLog(db);
  });
}

let newestCommitted: number | undefined;

/** The newest committed migration's timestamp, from drizzle-kit's journal beside the migrations. */
function newestCommittedMigration(): number {
  if (newestCommitted === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
    newestCommitted = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestCommitted;
}

/**
 * Whether every committed migration is applied, decided as drizzle's migrator decides what to
 * apply: the newest applied migration's timestamp reaches the newest committed one's.
 */
export async function migrationsApplied(): Promise<boolean> {
  const [row] = rowsOf<{ newest: string | number | null }>(await getDb().execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`));
  return Number(row?.newest ?? 0) >= newestCommittedMigration();
}
