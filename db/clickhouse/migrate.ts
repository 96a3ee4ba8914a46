import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clickhouse } from "./client";

/**
 * The analytics store's schema, migrated as PostgreSQL's is: the files of db/clickhouse/migrations
 * in name order, each applied once and recorded in `schema_migrations`. Every statement is
 * idempotent (IF NOT EXISTS), so two processes migrating at once leave the same schema.
 */

// Beside this module: db/clickhouse/migrations from the sources, dist/clickhouse-migrations in the compiled servers (scripts/build.mjs).
const MIGRATIONS = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./migrations/" : "./clickhouse-migrations/", import.meta.url));

/** The statements of a migration file: separated by a semicolon at a line's end, comments kept with them. */
function statementsOf(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.replace(/^--.*$/gm, "").trim() !== "");
}

/** Applies the migrations the store has not recorded yet, in order; returns their names. */
export async function migrateClickhouse(directory = MIGRATIONS): Promise<string[]> {
  const client = clickhouse();
  await client.command({
    query: "CREATE TABLE IF NOT EXISTS schema_migrations (name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ENGINE = MergeTree ORDER BY name",
  });
  const applied = new Set(
    (await (await client.query({ query: "SELECT name FROM schema_migrations", format: "JSONEachRow" })).json<{ name: string }>()).map((row) => row.name),
  );
  const files = (await readdir(directory)).filter((file) => file.endsWith(".sql")).sort();
  const pending = files.filter((file) => !applied.has(file));
  for (const file of pending) {
    for (const query of statementsOf(await readFile(path.join(directory, file), "utf8"))) await client.command({ query });
    await client.insert({ table: "schema_migrations", values: [{ name: file }], format: "JSONEachRow" });
  }
  return pending;
}
