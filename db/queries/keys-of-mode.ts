import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Books } from "@/core/enums";

/**
 * Traffic of one mode (docs/features/test-mode.md#traffic): the rows whose key is one of the
 * books' keys. A key's mode never changes, so the key decides its requests' mode, and the request
 * log, its rollups and the live tail need no column of their own for it.
 */
export function keyOfMode(keyColumn: AnyPgColumn | SQL, books: Books): SQL {
  return sql`${keyColumn} in (select k.id from api_keys k where k.org_id = ${books.orgId} and k.mode = ${books.mode})`;
}

/** Whether the organization has a key of the other mode: without one, every row of its traffic is of this mode. */
export async function hasKeysOfOtherMode(books: Books): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(
    await getDb().execute(sql`select exists (select 1 from api_keys where org_id = ${books.orgId} and mode <> ${books.mode}) as found`),
  );
  return row!.found;
}

/** A read of one mode's traffic: its books, and whether the organization has keys of the other mode. */
export interface TrafficScope {
  books: Books;
  otherModeKeys: boolean;
}

/** The scope of a read of the books' traffic, looked up once for all its statements. */
export async function trafficScope(books: Books): Promise<TrafficScope> {
  return { books, otherModeKeys: await hasKeysOfOtherMode(books) };
}

/**
 * The condition that keeps the scope's mode, or none when the organization has keys of that mode
 * only: the `in (its keys)` condition led the planner to read each key's index range in turn, and
 * an endpoint filter over 10 million rows took 337 ms instead of 20 (docs/performance.md#the-audit-log-at-10-million-rows).
 */
export function ofMode(keyColumn: AnyPgColumn | SQL, scope: TrafficScope): SQL | undefined {
  return scope.otherModeKeys ? keyOfMode(keyColumn, scope.books) : undefined;
}
