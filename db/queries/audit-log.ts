import "server-only";
import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { apiKeys, requestDailyRollup, requestLog } from "@/db/schema";
import { splitEndpoint, statusBounds, timeWindow, type AuditCursor, type AuditLogFilters } from "@/db/request-log";

export interface AuditLogRowDto {
  id: number;
  createdAt: string;
  requestId: string;
  keyId: string;
  /** Null only if the key row is gone; revoked keys keep their name. */
  keyName: string | null;
  keyHint: string | null;
  keyRevoked: boolean;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditLogPageDto {
  rows: AuditLogRowDto[];
  /** Where "Older" starts, or null on the oldest page. */
  older: AuditCursor | null;
  /** Where "Newer" starts, or null on the newest page. */
  newer: AuditCursor | null;
}

const AUDIT_PAGE_SIZE = 50;
const EXPORT_BATCH_SIZE = 1000;

// Carried as text with microseconds: a JS Date would round the stored time to milliseconds and
// make the next page skip or repeat rows written within the same millisecond.
const cursorAt = sql<string>`to_char(${requestLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function filterConditions(orgId: string, filters: AuditLogFilters, now: Date): SQL[] {
  const conditions: SQL[] = [eq(requestLog.orgId, orgId)];
  const window = timeWindow(filters, now);
  if (window.from) conditions.push(gte(requestLog.createdAt, window.from));
  if (window.to) conditions.push(lt(requestLog.createdAt, window.to));
  if (filters.endpoint) conditions.push(eq(requestLog.endpoint, filters.endpoint));
  if (filters.status) {
    const { min, max } = statusBounds(filters.status);
    // A class is matched on the expression of request_log_org_status_class_time_idx.
    conditions.push(min === max ? eq(requestLog.status, min) : sql`(${requestLog.status} / 100) = ${min / 100}`);
  }
  if (filters.key) conditions.push(eq(requestLog.apiKeyId, filters.key));
  if (filters.method) conditions.push(eq(requestLog.method, filters.method));
  return conditions;
}

/**
 * Rows strictly beyond the cursor in the given direction. The plain bound on created_at beside
 * the row comparison lets PostgreSQL skip whole monthly partitions.
 */
function beyond(cursor: AuditCursor, direction: "older" | "newer"): SQL {
  return direction === "older"
    ? sql`${requestLog.createdAt} <= ${cursor.at}::timestamptz and (${requestLog.createdAt}, ${requestLog.id}) < (${cursor.at}::timestamptz, ${cursor.id})`
    : sql`${requestLog.createdAt} >= ${cursor.at}::timestamptz and (${requestLog.createdAt}, ${requestLog.id}) > (${cursor.at}::timestamptz, ${cursor.id})`;
}

interface Slice {
  direction: "older" | "newer";
  cursor?: AuditCursor;
  limit: number;
}

/** Up to `limit` rows next to the cursor, newest first whichever way it walks. */
async function fetchSlice(orgId: string, filters: AuditLogFilters, now: Date, slice: Slice) {
  const conditions = filterConditions(orgId, filters, now);
  if (slice.cursor) conditions.push(beyond(slice.cursor, slice.direction));
  const order = slice.direction === "older" ? [desc(requestLog.createdAt), desc(requestLog.id)] : [asc(requestLog.createdAt), asc(requestLog.id)];
  const rows = await getDb()
    .select({
      id: requestLog.id,
      createdAt: requestLog.createdAt,
      cursorAt,
      requestId: requestLog.requestId,
      keyId: requestLog.apiKeyId,
      keyName: apiKeys.name,
      keyHint: apiKeys.hint,
      keyRevokedAt: apiKeys.revokedAt,
      method: requestLog.method,
      path: requestLog.path,
      endpoint: requestLog.endpoint,
      status: requestLog.status,
      durationMs: requestLog.durationMs,
      ip: requestLog.ip,
      userAgent: requestLog.userAgent,
    })
    .from(requestLog)
    .leftJoin(apiKeys, and(eq(apiKeys.id, requestLog.apiKeyId), eq(apiKeys.orgId, requestLog.orgId)))
    .where(and(...conditions))
    .orderBy(...order)
    .limit(slice.limit);
  return slice.direction === "older" ? rows : rows.reverse();
}

type SliceRow = Awaited<ReturnType<typeof fetchSlice>>[number];

function toDto({ cursorAt: _cursor, keyRevokedAt, createdAt, ...row }: SliceRow): AuditLogRowDto {
  return { ...row, createdAt: createdAt.toISOString(), keyRevoked: keyRevokedAt !== null };
}

function cursorOf(row: SliceRow): AuditCursor {
  return { at: row.cursorAt, id: row.id };
}

async function existsBeyond(orgId: string, filters: AuditLogFilters, now: Date, cursor: AuditCursor, direction: "older" | "newer"): Promise<boolean> {
  const [row] = await getDb()
    .select({ id: requestLog.id })
    .from(requestLog)
    .where(and(...filterConditions(orgId, filters, now), beyond(cursor, direction)))
    .limit(1);
  return Boolean(row);
}

/**
 * One page of the organization's requests matching the filters, newest first, by keyset:
 * `filters.before` walks to older rows, `filters.after` to newer ones; page 1000 costs what page 1 does.
 */
export async function listAuditLog(orgId: string, filters: AuditLogFilters, options: { now?: Date; pageSize?: number } = {}): Promise<AuditLogPageDto> {
  const now = options.now ?? new Date();
  const pageSize = options.pageSize ?? AUDIT_PAGE_SIZE;
  const direction = filters.after ? "newer" : "older";
  const cursor = filters.after ?? filters.before;
  // One row more than a page tells whether there is another page in the walking direction.
  const fetched = await fetchSlice(orgId, filters, now, { direction, cursor, limit: pageSize + 1 });
  const more = fetched.length > pageSize;
  const rows = direction === "older" ? fetched.slice(0, pageSize) : fetched.slice(more ? 1 : 0);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) {
    // Past either end: offer the way back towards the rows, if there are any.
    return {
      rows: [],
      older: cursor && direction === "newer" && (await existsBeyond(orgId, filters, now, cursor, "older")) ? cursor : null,
      newer: cursor && direction === "older" && (await existsBeyond(orgId, filters, now, cursor, "newer")) ? cursor : null,
    };
  }
  const hasOlder = direction === "older" ? more : await existsBeyond(orgId, filters, now, cursorOf(last), "older");
  const hasNewer = direction === "newer" ? more : Boolean(cursor) && (await existsBeyond(orgId, filters, now, cursorOf(first), "newer"));
  return {
    rows: rows.map(toDto),
    older: hasOlder ? cursorOf(last) : null,
    newer: hasNewer ? cursorOf(first) : null,
  };
}

/**
 * Every row matching the filters (cursors ignored), newest first, in batches read by keyset:
 * the export holds one batch in memory however long the log is.
 */
export async function* auditLogBatches(orgId: string, filters: AuditLogFilters, options: { now?: Date; batchSize?: number } = {}): AsyncGenerator<AuditLogRowDto[]> {
  const now = options.now ?? new Date();
  const limit = options.batchSize ?? EXPORT_BATCH_SIZE;
  const matching = { ...filters, before: undefined, after: undefined };
  let cursor: AuditCursor | undefined;
  for (;;) {
    const rows = await fetchSlice(orgId, matching, now, { direction: "older", cursor, limit });
    const last = rows[rows.length - 1];
    if (!last) return;
    yield rows.map(toDto);
    if (rows.length < limit) return;
    cursor = cursorOf(last);
  }
}

export interface AuditFilterOptionsDto {
  endpoints: string[];
  statuses: number[];
  methods: string[];
}

/** The endpoints and status codes the organization's keys have seen, from the small rollup table. */
export async function getAuditFilterOptions(orgId: string): Promise<AuditFilterOptionsDto> {
  const rows = await getDb()
    .selectDistinct({ endpoint: requestDailyRollup.endpoint, status: requestDailyRollup.status })
    .from(requestDailyRollup)
    .where(eq(requestDailyRollup.orgId, orgId));
  const endpoints = [...new Set(rows.map((row) => row.endpoint))].map((endpoint) => ({ endpoint, ...splitEndpoint(endpoint) }));
  endpoints.sort((a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method));
  return {
    endpoints: endpoints.map(({ endpoint }) => endpoint),
    statuses: [...new Set(rows.map((row) => row.status))].sort((a, b) => a - b),
    methods: [...new Set(endpoints.map(({ method }) => method).filter(Boolean))].sort(),
  };
}
