import { asc, desc, gte, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AuditCursor } from "@/core/request-log";

/** A position in a newest-first list: a row's time to the microsecond (as stored) and its id. */
export type KeysetCursor = AuditCursor;

export interface KeysetSlice {
  direction: "older" | "newer";
  cursor?: KeysetCursor;
  limit: number;
}

export interface KeysetPage<Row> {
  rows: Row[];
  /** Where "Older" starts, or null on the oldest page. */
  older: KeysetCursor | null;
  /** Where "Newer" starts, or null on the newest page. */
  newer: KeysetCursor | null;
}

/**
 * One page of a newest-first list by keyset, from `read`, which returns up to `limit` rows beyond
 * a cursor, newest first whichever way it walks: `position.before` walks to older rows,
 * `position.after` to newer ones, and page 1000 costs what page 1 does. Shared by the request
 * audit log and the activity history.
 */
export async function keysetPage<Row extends { id: number; cursorAt: string }>(
  read: (slice: KeysetSlice) => Promise<Row[]>,
  position: { before?: KeysetCursor; after?: KeysetCursor },
  pageSize: number,
): Promise<KeysetPage<Row>> {
  const direction = position.after ? "newer" : "older";
  const cursor = position.after ?? position.before;
  const cursorOf = (row: Row): KeysetCursor => ({ at: row.cursorAt, id: row.id });
  const existsBeyond = async (at: KeysetCursor, towards: KeysetSlice["direction"]) => (await read({ direction: towards, cursor: at, limit: 1 })).length > 0;
  // One row more than a page tells whether there is another page in the walking direction.
  const fetched = await read({ direction, cursor, limit: pageSize + 1 });
  const more = fetched.length > pageSize;
  const rows = direction === "older" ? fetched.slice(0, pageSize) : fetched.slice(more ? 1 : 0);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) {
    // Past either end: offer the way back towards the rows, if there are any.
    return {
      rows: [],
      older: cursor && direction === "newer" && (await existsBeyond(cursor, "older")) ? cursor : null,
      newer: cursor && direction === "older" && (await existsBeyond(cursor, "newer")) ? cursor : null,
    };
  }
  const hasOlder = direction === "older" ? more : await existsBeyond(cursorOf(last), "older");
  const hasNewer = direction === "newer" ? more : Boolean(cursor) && (await existsBeyond(cursorOf(first), "newer"));
  return { rows, older: hasOlder ? cursorOf(last) : null, newer: hasNewer ? cursorOf(first) : null };
}

/** The two columns a newest-first list is ordered and paged by: each row's time and its id. */
export interface KeysetColumns {
  at: AnyPgColumn;
  id: AnyPgColumn;
}

/**
 * A row's time as its cursor carries it: text with microseconds, as stored. A JS Date would round
 * it to milliseconds and make the next page skip or repeat rows written within one millisecond.
 */
export const cursorTime = ({ at }: KeysetColumns) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows from `from` (included) to `to` (excluded), either end open when absent. */
export function withinWindow({ at }: KeysetColumns, window: { from?: Date; to?: Date }): SQL[] {
  const conditions: SQL[] = [];
  if (window.from) conditions.push(gte(at, window.from));
  if (window.to) conditions.push(lt(at, window.to));
  return conditions;
}

/**
 * Rows strictly beyond the cursor in the given direction. The plain bound on the time beside the
 * row comparison lets PostgreSQL skip whole monthly partitions of the request log.
 */
export function beyondCursor({ at, id }: KeysetColumns, cursor: KeysetCursor, direction: KeysetSlice["direction"]): SQL {
  return direction === "older"
    ? sql`${at} <= ${cursor.at}::timestamptz and (${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})`
    : sql`${at} >= ${cursor.at}::timestamptz and (${at}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id})`;
}

/** The order a slice is read in: newest first walking to older rows, oldest first to newer ones. */
export function walkingOrder({ at, id }: KeysetColumns, direction: KeysetSlice["direction"]): SQL[] {
  return direction === "older" ? [desc(at), desc(id)] : [asc(at), asc(id)];
}
