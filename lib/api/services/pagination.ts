import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "@/db";
import { notFound } from "./refusals";

/** A tenant table listed newest first by (created_at, id); `id` breaks ties of one instant. */
export interface Keyset {
  table: PgTable;
  orgId: PgColumn;
  id: PgColumn;
  createdAt: PgColumn;
}

export function newestFirst(keys: Keyset) {
  return [desc(keys.createdAt), desc(keys.id)];
}

/**
 * Rows after the cursor object in newest-first order. The cursor's created_at is read inside the
 * query, at the database's microsecond precision, so rows of the same millisecond are not skipped.
 */
export async function after(keys: Keyset, orgId: string, startingAfter: string | undefined): Promise<SQL | undefined> {
  if (startingAfter === undefined) return undefined;
  const [cursor] = await getDb()
    .select({ id: keys.id })
    .from(keys.table)
    .where(and(eq(keys.orgId, orgId), eq(keys.id, startingAfter)));
  if (!cursor) throw notFound(startingAfter, "query.starting_after");
  return sql`(${keys.createdAt}, ${keys.id}) < (select c.created_at, c.id from ${keys.table} c where c.org_id = ${orgId} and c.id = ${startingAfter})`;
}

/** The list envelope from `limit + 1` rows: the extra row only says that another page exists. */
export function page<T extends { id: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { object: "list" as const, data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}

