import "server-only";
import { and, desc, eq, sql, type InferSelectModel, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "@/db";
import type { Books } from "@/core/enums";
import { inBooks } from "./books";

/** A business table listed newest first by (created_at, id); `id` breaks ties of one instant. */
export type NewestFirstTable = PgTable & { orgId: AnyPgColumn; mode: AnyPgColumn; id: AnyPgColumn; createdAt: AnyPgColumn };

/** A page of a list: `limit` rows after the object `startingAfter` names, or from the newest. */
export interface PageRequest {
  limit: number;
  startingAfter?: string;
}

/**
 * Up to `limit + 1` rows of the books matching `filters`, newest first, after the cursor object:
 * the extra row only says that another page exists. Null when the books have no object with the
 * cursor's id (one of the other mode is none). The cursor's created_at is read inside the query,
 * at the database's microsecond precision, so rows of the same millisecond are not skipped.
 */
export async function newestFirstRows<Table extends NewestFirstTable>(
  table: Table,
  books: Books,
  request: PageRequest,
  filters: (SQL | undefined)[],
): Promise<InferSelectModel<Table>[] | null> {
  const { startingAfter } = request;
  const ofBooks = inBooks(table, books);
  let afterCursor: SQL | undefined;
  if (startingAfter !== undefined) {
    const [cursor] = await getDb()
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(ofBooks, eq(table.id, startingAfter)));
    if (!cursor) return null;
    afterCursor = sql`(${table.createdAt}, ${table.id}) < (select c.created_at, c.id from ${table} c where c.org_id = ${books.orgId} and c.mode = ${books.mode} and c.id = ${startingAfter})`;
  }
  const rows = await getDb()
    .select()
    .from(table as PgTable)
    .where(and(ofBooks, ...filters, afterCursor))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(request.limit + 1);
  return rows as InferSelectModel<Table>[];
}
