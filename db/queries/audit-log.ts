import "server-only";
import { and, between, eq, gt, sql, type SQL } from "drizzle-orm";
import { copyOut, getDb } from "@/db";
import { inert, withLiterals } from "@/db/queries/csv-export";
import { beyondCursor, cursorTime, keysetPage, walkingOrder, withinWindow, type KeysetColumns, type KeysetPage } from "@/db/keyset";
import { apiKeys, requestDailyRollup, requestLog } from "@/db/schema";
import { statusBounds, timeWindow, type AuditLogFilters, type LoggedRequestColumns } from "@/core/request-log";
import { chooseRoute, rollupDays, rollupMatches, type Route, type Slice } from "@/db/queries/audit-log-route";
import type { Books, Mode } from "@/core/enums";
import { clickhouseUrl } from "@/db/clickhouse/client";
import { ofMode, trafficScope, type TrafficScope } from "./keys-of-mode";
import { sliceAcrossStores } from "./audit-log-across-stores";

export interface AuditLogRowDto extends LoggedRequestColumns {
  createdAt: string;
  /** Null only if the key row is gone; revoked keys keep their name. */
  keyName: string | null;
  keyHint: string | null;
  keyRevoked: boolean;
  /** The key's mode, and so the request's (docs/features/test-mode.md#traffic); null only if the key row is gone. */
  keyMode: Mode | null;
}

export type AuditLogPageDto = KeysetPage<AuditLogRowDto>;

const AUDIT_PAGE_SIZE = 50;

const timeline: KeysetColumns = { at: requestLog.createdAt, id: requestLog.id };
const cursorAt = cursorTime(timeline);

/** The scope's rows in the filters' time window: the organization's, of its keys of the mode. */
function inWindow(scope: TrafficScope, filters: AuditLogFilters, now: Date): (SQL | undefined)[] {
  return [eq(requestLog.orgId, scope.books.orgId), ofMode(requestLog.apiKeyId, scope), ...withinWindow(timeline, timeWindow(filters, now))];
}

function filterConditions(scope: TrafficScope, filters: AuditLogFilters, now: Date): (SQL | undefined)[] {
  return [...inWindow(scope, filters, now), ...rowFilters(filters)];
}

/** The filters on a row's own columns, every filter but the time window: the live tail's too. */
export function rowFilters(filters: Omit<AuditLogFilters, "range" | "from" | "to" | "before" | "after">): SQL[] {
  const conditions: SQL[] = [];
  if (filters.endpoint) conditions.push(eq(requestLog.endpoint, filters.endpoint));
  if (filters.status) {
    const { min, max } = statusBounds(filters.status);
    conditions.push(between(requestLog.status, min, max));
  }
  if (filters.key) conditions.push(eq(requestLog.apiKeyId, filters.key));
  if (filters.method) conditions.push(eq(requestLog.method, filters.method));
  if (filters.error) conditions.push(eq(requestLog.errorCode, filters.error));
  return conditions;
}

/**
 * The (created_at, id) of the slice's rows, read per matching (key, endpoint, status): each
 * combination gives at most `limit` rows from its own index range, and the best `limit` of all win.
 */
function byCombination(scope: TrafficScope, filters: AuditLogFilters, now: Date, slice: Slice): SQL {
  const inTime = inWindow(scope, filters, now);
  if (slice.cursor) inTime.push(beyondCursor(timeline, slice.cursor, slice.direction));
  const order = slice.direction === "older" ? sql`desc` : sql`asc`;
  return sql`
    select picked.created_at, picked.id
    from (
      select distinct ${requestDailyRollup.apiKeyId} as api_key_id, ${requestDailyRollup.endpoint} as endpoint, ${requestDailyRollup.status} as status
      from ${requestDailyRollup}
      where ${and(...rollupDays(scope.books.orgId, filters, now, slice), rollupMatches(scope, filters))}
    ) combination
    cross join lateral (
      select ${requestLog.createdAt} as created_at, ${requestLog.id} as id
      from ${requestLog}
      where ${and(...inTime)} and ${requestLog.apiKeyId} = combination.api_key_id
        and ${requestLog.endpoint} = combination.endpoint and ${requestLog.status} = combination.status
        ${filters.error ? sql`and ${requestLog.errorCode} = ${filters.error}` : sql``}
      order by ${requestLog.createdAt} ${order}, ${requestLog.id} ${order}
      limit ${slice.limit}
    ) picked
    order by picked.created_at ${order}, picked.id ${order}
    limit ${slice.limit}`;
}

/**
 * The statement of a slice read by the given route: up to `limit` rows next to the cursor, in
 * the walking direction. Exported for the bench, which EXPLAINs it.
 */
export function sliceQuery(scope: TrafficScope, filters: AuditLogFilters, now: Date, slice: Slice & { route: Route; afterId?: number }) {
  const conditions = filterConditions(scope, filters, now);
  if (slice.cursor) conditions.push(beyondCursor(timeline, slice.cursor, slice.direction));
  // Only the rows an analytics store has not been sent (db/queries/audit-log-across-stores.ts).
  if (slice.afterId !== undefined) conditions.push(gt(requestLog.id, slice.afterId));
  if (slice.route === "by-combination") conditions.push(sql`(${requestLog.createdAt}, ${requestLog.id}) in (${byCombination(scope, filters, now, slice)})`);
  return getDb()
    .select({ ...AUDIT_ROW_COLUMNS, cursorAt })
    .from(requestLog)
    .leftJoin(apiKeys, keyOfRow)
    .where(and(...conditions))
    .orderBy(...walkingOrder(timeline, slice.direction))
    .limit(slice.limit);
}

/** What an audit-log row shows: the request's columns and its key's name and hint (AuditLogRowDto, by auditRowDto). */
export const AUDIT_ROW_COLUMNS = {
  id: requestLog.id,
  createdAt: requestLog.createdAt,
  requestId: requestLog.requestId,
  keyId: requestLog.apiKeyId,
  keyName: apiKeys.name,
  keyHint: apiKeys.hint,
  keyRevokedAt: apiKeys.revokedAt,
  keyMode: apiKeys.mode,
  method: requestLog.method,
  path: requestLog.path,
  endpoint: requestLog.endpoint,
  status: requestLog.status,
  errorCode: requestLog.errorCode,
  durationMs: requestLog.durationMs,
  ip: requestLog.ip,
  userAgent: requestLog.userAgent,
};

/** The join of a row's key, within the row's organization. */
export const keyOfRow = and(eq(apiKeys.id, requestLog.apiKeyId), eq(apiKeys.orgId, requestLog.orgId));

type AuditRow = Omit<AuditLogRowDto, "createdAt" | "keyRevoked"> & { createdAt: Date; keyRevokedAt: Date | null };

export function auditRowDto({ keyRevokedAt, createdAt, ...row }: AuditRow): AuditLogRowDto {
  return { ...row, createdAt: createdAt.toISOString(), keyRevoked: keyRevokedAt !== null };
}

/** Up to `limit` rows next to the cursor, newest first whichever way it walks. */
async function fetchSlice(scope: TrafficScope, filters: AuditLogFilters, now: Date, slice: Slice) {
  const rows = clickhouseUrl()
    ? await sliceAcrossStores(scope, filters, now, slice, (afterId) => sliceQuery(scope, filters, now, { ...slice, route: "time-order", afterId }))
    : await sliceQuery(scope, filters, now, { ...slice, route: slice.route ?? (await chooseRoute(scope, filters, now, slice)) });
  return slice.direction === "older" ? rows : rows.reverse();
}

/**
 * One page of the books' requests matching the filters, newest first, by keyset:
 * `filters.before` walks to older rows, `filters.after` to newer ones; page 1000 costs what page 1 does.
 */
export async function listAuditLog(
  books: Books,
  filters: AuditLogFilters,
  options: { now?: Date; pageSize?: number; route?: Route } = {},
): Promise<AuditLogPageDto> {
  const now = options.now ?? new Date();
  const scope = await trafficScope(books);
  const page = await keysetPage((slice) => fetchSlice(scope, filters, now, { ...slice, route: options.route }), filters, options.pageSize ?? AUDIT_PAGE_SIZE);
  return { ...page, rows: page.rows.map(({ cursorAt: _cursor, ...row }) => auditRowDto(row)) };
}

/** The export's columns, in order; their names are the CSV header. */
const EXPORT_COLUMNS = {
  time: sql`to_char(${requestLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  request_id: requestLog.requestId,
  key_id: requestLog.apiKeyId,
  key_name: inert(apiKeys.name),
  key_hint: apiKeys.hint,
  key_status: sql`case when ${apiKeys.revokedAt} is null then 'active' else 'revoked' end`,
  method: inert(requestLog.method),
  path: inert(requestLog.path),
  endpoint: inert(requestLog.endpoint),
  status: requestLog.status,
  error_code: requestLog.errorCode,
  duration_ms: requestLog.durationMs,
  ip: inert(requestLog.ip),
  user_agent: inert(requestLog.userAgent),
};

/**
 * The audit log as CSV, every row matching the filters (cursors ignored), newest first: one
 * COPY, encoded by PostgreSQL and streamed at the reader's pace, so memory stays flat however
 * many rows there are. The rows are the ones the pages show, in their order.
 */
export async function auditLogCsv(books: Books, filters: AuditLogFilters, options: { now?: Date } = {}): Promise<ReadableStream<Uint8Array>> {
  const now = options.now ?? new Date();
  const columns = Object.entries(EXPORT_COLUMNS).map(([name, expression]) => sql`${expression} as ${sql.identifier(name)}`);
  const query = getDb()
    .select({ row: sql`${sql.join(columns, sql`, `)}` })
    .from(requestLog)
    .leftJoin(apiKeys, and(eq(apiKeys.id, requestLog.apiKeyId), eq(apiKeys.orgId, requestLog.orgId)))
    .where(and(...filterConditions(await trafficScope(books), filters, now)))
    .orderBy(...walkingOrder(timeline, "older"));
  return copyOut(await withLiterals(query.toSQL()), "format csv, header true");
}
