import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { DISTRIBUTION_COLUMN, REFERENCE_TABLES } from "@/db/distribution";

/**
 * docs/operations.md, "Beyond one machine": on Citus every table of the schema either distributes by org_id or
 * is one of the reference tables db/distribution.ts names. These are Citus's rules for that,
 * checked against the migrated catalog (not the drizzle schema), so a migration that breaks one
 * fails here, before anyone tries to distribute the tables.
 */

interface Table {
  name: string;
  columns: string[];
}
interface Key {
  table: string;
  name: string;
  columns: string[];
}
interface ForeignKey extends Key {
  references: string;
  referencedColumns: string[];
}

/** The base tables of the public schema (a partition is its parent's). */
async function tables(): Promise<Table[]> {
  return rowsOf<{ name: string; columns: string[] }>(
    await getDb().execute(sql`
      select c.relname as name, array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and c.relname <> '__drizzle_migrations'
      order by 1`),
  );
}

/** Primary keys and unique indexes (constraints or not, partial or not) of the base tables. */
async function uniqueKeys(): Promise<Key[]> {
  return rowsOf<Key>(
    await getDb().execute(sql`
      select t.relname as table, i.relname as name,
             array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n) as columns
      from pg_index x join pg_class t on t.oid = x.indrelid join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and x.indisunique and not t.relispartition
      order by 1, 2`),
  );
}

async function foreignKeys(): Promise<ForeignKey[]> {
  return rowsOf<ForeignKey>(
    await getDb().execute(sql`
      select t.relname as table, k.conname as name, r.relname as references,
             array(select a.attname::text from unnest(k.conkey) with ordinality c(attnum, n) join pg_attribute a on a.attrelid = k.conrelid and a.attnum = c.attnum order by c.n) as columns,
             array(select a.attname::text from unnest(k.confkey) with ordinality c(attnum, n) join pg_attribute a on a.attrelid = k.confrelid and a.attnum = c.attnum order by c.n) as "referencedColumns"
      from pg_constraint k join pg_class t on t.oid = k.conrelid join pg_class r on r.oid = k.confrelid join pg_namespace n on n.oid = t.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and not t.relispartition and k.conparentid = 0
      order by 1, 2`),
  );
}

describe("the schema distributes by org_id on Citus (docs/operations.md: Beyond one machine)", () => {
  it("names only tables that exist as reference tables", async () => {
    const names = new Set((await tables()).map((table) => table.name));
    expect(REFERENCE_TABLES.filter((name) => !names.has(name))).toEqual([]);
  });

  it("has no table that neither carries org_id nor is a reference table", async () => {
    const homeless = (await tables()).filter((table) => !table.columns.includes(DISTRIBUTION_COLUMN) && !REFERENCE_TABLES.includes(table.name));
    expect(homeless.map((table) => table.name)).toEqual([]);
  });

  it("includes org_id in every primary and unique key of a distributed table", async () => {
    const distributed = new Set((await tables()).filter((table) => !REFERENCE_TABLES.includes(table.name)).map((table) => table.name));
    const broken = (await uniqueKeys()).filter((key) => distributed.has(key.table) && !key.columns.includes(DISTRIBUTION_COLUMN));
    expect(broken.map((key) => `${key.table}.${key.name} (${key.columns.join(", ")})`)).toEqual([]);
  });

  it("joins distributed tables by org_id in every foreign key between them, and never points a reference table at a distributed one", async () => {
    const reference = new Set(REFERENCE_TABLES);
    const broken = (await foreignKeys()).filter((key) => {
      if (reference.has(key.references)) return false; // distributed or reference → reference: allowed
      if (reference.has(key.table)) return true; // reference → distributed: Citus refuses it
      const at = key.columns.indexOf(DISTRIBUTION_COLUMN);
      return at === -1 || key.referencedColumns[at] !== DISTRIBUTION_COLUMN;
    });
    expect(broken.map((key) => `${key.table}.${key.name} (${key.columns.join(", ")}) → ${key.references} (${key.referencedColumns.join(", ")})`)).toEqual([]);
  });
});
