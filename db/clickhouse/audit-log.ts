import { timeWindow, type AuditCursor, type AuditLogFilters, type LoggedRequestColumns } from "@/core/request-log";
import type { Books } from "@/core/enums";
import { clickhouse } from "./client";
import { storedRequestConditions } from "./conditions";

/**
 * A slice of the audit log from the analytics store's request log (docs/features/analytics-store.md#reads):
 * the books' rows matching the filters through request-log id `through`, beyond the cursor in the
 * walking direction, at most `limit`, in walking order. The key's name and state are PostgreSQL's
 * (lib/analytics/audit-log.ts adds them).
 */

export interface StoredAuditRow extends LoggedRequestColumns {
  /** The row's time as a cursor carries it: ISO 8601 to the microsecond. */
  cursorAt: string;
}

export interface StoreSlice {
  direction: "older" | "newer";
  cursor?: AuditCursor;
  limit: number;
}

type Row = Omit<StoredAuditRow, "id" | "cursorAt" | "status" | "durationMs"> & {
  id: number | string;
  at_us: number | string;
  status: number;
  durationMs: number;
};

/** Epoch microseconds as a cursor's text: "2026-11-29T10:00:00.123456Z". */
function cursorText(microseconds: bigint): string {
  const iso = new Date(Number(microseconds / 1000n)).toISOString();
  return `${iso.slice(0, -1)}${String(microseconds % 1000n).padStart(3, "0")}Z`;
}

export async function storedAuditSlice(books: Books, filters: AuditLogFilters, now: Date, slice: StoreSlice, through: number): Promise<StoredAuditRow[]> {
  const { where, params, add } = storedRequestConditions(books, through, {
    ...timeWindow(filters, now),
    keyId: filters.key,
    endpoint: filters.endpoint,
    status: filters.status,
  });
  if (filters.method) add("method = {method:String}", { method: filters.method });
  if (filters.error) add("error_code = {errorCode:String}", { errorCode: filters.error });
  if (slice.cursor) {
    const beyond = slice.direction === "older" ? "<" : ">";
    add(`(created_at, id) ${beyond} (parseDateTime64BestEffort({cursorAt:String}, 6, 'UTC'), {cursorId:UInt64})`, {
      cursorAt: slice.cursor.at,
      cursorId: slice.cursor.id,
    });
  }
  const order = slice.direction === "older" ? "DESC" : "ASC";
  const result = await clickhouse().query({
    query: `
      SELECT id, toUnixTimestamp64Micro(created_at) AS at_us, request_id AS requestId, api_key_id AS keyId, method, path, endpoint, status,
             error_code AS errorCode, duration_ms AS durationMs, ip, user_agent AS userAgent
      FROM request_log FINAL
      WHERE ${where()}
      ORDER BY created_at ${order}, id ${order}
      LIMIT {limit:UInt32}`,
    query_params: { ...params, limit: slice.limit },
    format: "JSONEachRow",
  });
  return (await result.json<Row>()).map(({ id, at_us, ...row }) => ({ ...row, id: Number(id), cursorAt: cursorText(BigInt(at_us)) }));
}
