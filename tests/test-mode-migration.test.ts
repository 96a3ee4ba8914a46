import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { rowsOf } from "@/db/rows";
import { databaseUrl, onServer } from "./setup/database-server";

// Test mode's migration on a database that held data before it (docs/features/test-mode.md):
// every key and business record becomes live, and the live numbering goes on where it was.

const MIGRATIONS = path.resolve("db/migrations");
const BEFORE_TEST_MODE = "0033_request_trace_id";

/** The committed migrations up to and including `lastTag`, as a folder drizzle's migrator reads. */
function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(last).toBeGreaterThan(0);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.mkdirSync(path.join(folder, "meta"));
  const entries = journal.entries.slice(0, last + 1);
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

/** A database of its own, on the server the tests run on (PostgreSQL or PGlite), migrated by `migrate(folder)`. */
async function scratchDatabase() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const client = new PGlite();
    const db = drizzlePglite(client);
    return { db, migrate: (migrationsFolder: string) => migratePglite(db, { migrationsFolder }), close: () => client.close() };
  }
  const name = `test_migration_${randomBytes(4).toString("hex")}`;
  await onServer(serverUrl, `create database "${name}"`);
  const client = postgres(databaseUrl(serverUrl, name), { max: 1, onnotice: () => {} });
  const db = drizzlePostgres(client);
  return {
    db,
    migrate: (migrationsFolder: string) => migratePostgres(db, { migrationsFolder }),
    close: async () => {
      await client.end();
      await onServer(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

let close: (() => Promise<void>) | undefined;
afterAll(() => close?.());

it("makes every existing key and business record live, and keeps the live numbering going", async () => {
  const scratch = await scratchDatabase();
  close = scratch.close;
  const { db } = scratch;
  await scratch.migrate(migrationsUpTo(BEFORE_TEST_MODE));
  await db.execute(sql`insert into organizations (id, name, slug, plan) values ('org_old', 'Old Org', 'old-org', 'pro')`);
  await db.execute(sql`insert into api_keys (id, org_id, name, key_hash, hint) values ('key_old', 'org_old', 'Production', 'hash-old', 'ik_abcd…wxyz')`);
  await db.execute(sql`insert into customers (org_id, id, name) values ('org_old', 'cus_old', 'Jane')`);
  await db.execute(sql`insert into products (org_id, id, name, sku, unit_amount, currency) values ('org_old', 'prod_old', 'Beans', 'BEANS', 100, 'EUR')`);
  await db.execute(
    sql`insert into invoices (org_id, id, customer_id, number, status, currency, subtotal, tax, total) values ('org_old', 'in_old', 'cus_old', 'INV-000007', 'open', 'EUR', 100, 0, 100)`,
  );
  await db.execute(
    sql`insert into invoice_line_items (org_id, id, invoice_id, position, product_id, description, quantity, unit_amount, tax_rate_ppm, amount, tax) values ('org_old', 'li_old', 'in_old', 0, 'prod_old', 'Beans', 1, 100, 0, 100, 0)`,
  );
  await db.execute(sql`insert into invoice_counters (org_id, last_number) values ('org_old', 7)`);
  await db.execute(sql`insert into idempotency_keys (org_id, key, api_key_id, request_hash) values ('org_old', 'digest', 'key_old', 'hash')`);
  await db.execute(
    sql`insert into webhook_endpoints (id, org_id, url, event_types, signing_secret) values ('whe_old', 'org_old', 'https://example.com/hooks', '{key.created}', 'whsec_x')`,
  );

  await scratch.migrate(MIGRATIONS);

  const tables = ["api_keys", "customers", "products", "invoices", "invoice_line_items", "invoice_counters", "idempotency_keys", "webhook_endpoints"];
  for (const table of tables) {
    const modes = rowsOf<{ mode: string }>(await db.execute(sql`select mode from ${sql.identifier(table)}`)).map((row) => row.mode);
    expect(modes, table).toEqual(["live"]);
  }
  // The live sequence goes on from 7; the test sequence starts at 1 on its own row.
  const next = rowsOf<{ last_number: number }>(
    await db.execute(sql`insert into invoice_counters (org_id, mode, last_number) values ('org_old', 'live', 1)
      on conflict (org_id, mode) do update set last_number = invoice_counters.last_number + 1 returning last_number`),
  );
  expect(next).toEqual([{ last_number: 8 }]);
  // A write that forgets its mode is refused rather than landing in the live books.
  await expect(db.execute(sql`insert into customers (org_id, id, name) values ('org_old', 'cus_new', 'No mode')`)).rejects.toMatchObject({
    cause: { code: "23502" },
  });
});
