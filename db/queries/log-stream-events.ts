import "server-only";
import { sql } from "drizzle-orm";
import { arrayLiteral, type DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";
import type { Mode } from "@/core/enums";

/**
 * The events a log stream delivers, read after its cursors (docs/features/log-streams.md#delivery),
 * each source in the order its rows became visible: the request log by id (ids are given in commit
 * order, db/queries/request-log-writer.ts); activity and alerts by (transaction, id), only of
 * transactions no snapshot can still see running, so an entry committed late is never skipped.
 */

/** The position after which a source is read: a request-log id, or a (transaction, id) pair. */
export interface VisibleAfter {
  tx: string;
  id: number;
}

export interface RequestEventRow {
  id: number;
  request_id: string;
  created_at: string;
  api_key_id: string;
  key_name: string | null;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  duration_ms: number;
  ip: string | null;
  user_agent: string | null;
  error_code: string | null;
  trace_id: string | null;
}

export interface ActivityEventRow {
  id: number;
  tx: string;
  created_at: string;
  actor_kind: "user" | "system";
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  user_agent: string | null;
}

export interface AlertEventRow {
  id: number;
  tx: string;
  created_at: string;
  kind: string;
  key_id: string | null;
  key_name: string | null;
  details: Record<string, string | number>;
}

/** Timestamps as ISO text from the database itself, the same on PGlite and postgres.js. */
const ISO = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Whether request-log row `r`'s key is of `mode`. A scalar subquery, not a join, so the request log
 * is read in id order from the cursor and the read stops at its limit: joined, PostgreSQL's generic
 * plan for the prepared statement read every row after the cursor key by key, then sorted them
 * (17 µs a delivered event in the log-streams bench, docs/performance.md#log-streams-cost-on-the-request-path).
 */
export const requestOfMode = (r: string, mode: Mode) => sql`(select k.mode from api_keys k where k.id = ${sql.raw(r)}.api_key_id) = ${mode}`;

/** A request as a stream reads it: the row its event carries, and the mode of its key (null: a key no longer there). */
export interface LoggedRequest {
  row: RequestEventRow;
  mode: Mode | null;
}

type RequestLogRow = Omit<RequestEventRow, "created_at" | "key_name"> & { created_us: number };

/**
 * The organization's requests after request-log id `after`, of either mode, oldest first, at most
 * `limit`, each with its key's name and mode. The log is read in id order on its (org_id, id)
 * index and the read stops at its limit; the keys are looked up once for the read, where a lookup
 * per row cost PostgreSQL about 2.6 µs of the 3.4 a row took (and the time's text, 0.3 µs), at the
 * normal priority the delivery process does not have (docs/performance.md#log-streams-cost-on-the-request-path).
 */
export async function requestsAfter(db: DbOrTx, orgId: string, after: number, limit: number): Promise<LoggedRequest[]> {
  const rows = rowsOf<RequestLogRow>(
    await db.execute(sql`
      select r.id::float8 as id, r.request_id, round(date_part('epoch', r.created_at) * 1e6) as created_us, r.api_key_id, r.method, r.path,
             r.endpoint, r.status, r.duration_ms, r.ip, r.user_agent, r.error_code, r.trace_id::text as trace_id
      from request_log r
      where r.org_id = ${orgId} and r.id > ${after}
      order by r.id
      limit ${limit}`),
  );
  if (rows.length === 0) return [];
  const keyIds = [...new Set(rows.map((row) => row.api_key_id))];
  const keys = new Map(
    rowsOf<{ id: string; name: string; mode: Mode }>(
      await db.execute(sql`select id, name, mode from api_keys where org_id = ${orgId} and id = any(${arrayLiteral(keyIds)}::text[])`),
    ).map((key) => [key.id, key]),
  );
  return rows.map(({ id, request_id, created_us, api_key_id, ...rest }) => {
    const key = keys.get(api_key_id);
    // Microseconds to the millisecond, cut as the other sources' to_char(… 'MS') cuts them.
    const created_at = new Date(Math.floor(Number(created_us) / 1000)).toISOString();
    return { row: { id, request_id, created_at, api_key_id, key_name: key?.name ?? null, ...rest }, mode: key?.mode ?? null };
  });
}

const VISIBLE = sql.raw("pg_snapshot_xmin(pg_current_snapshot())");

export async function activityAfter(db: DbOrTx, orgId: string, after: VisibleAfter, limit: number): Promise<ActivityEventRow[]> {
  return rowsOf<ActivityEventRow>(
    await db.execute(sql`
      select a.id::float8 as id, a.tx::text as tx, ${ISO("a.created_at")} as created_at, a.actor_kind, u.email as actor_email, a.action,
             a.target_type, a.target_id, a.target_name, a.before, a.after, a.ip, a.user_agent
      from activity_log a left join users u on u.id = a.actor_user_id
      where a.org_id = ${orgId} and (a.tx, a.id) > (${after.tx}::xid8, ${after.id}) and a.tx < ${VISIBLE}
      order by a.tx, a.id
      limit ${limit}`),
  );
}

export async function alertsAfter(db: DbOrTx, orgId: string, after: VisibleAfter, limit: number): Promise<AlertEventRow[]> {
  return rowsOf<AlertEventRow>(
    await db.execute(sql`
      select a.id::float8 as id, a.tx::text as tx, ${ISO("a.created_at")} as created_at, a.kind, a.api_key_id as key_id, k.name as key_name, a.details
      from alerts a left join api_keys k on k.id = a.api_key_id
      where a.org_id = ${orgId} and (a.tx, a.id) > (${after.tx}::xid8, ${after.id}) and a.tx < ${VISIBLE}
      order by a.tx, a.id
      limit ${limit}`),
  );
}

/**
 * Where a new stream starts: after everything already visible, so it carries what happens from
 * its creation on. A transaction still running then is after it, and delivered.
 */
export async function currentPositions(db: DbOrTx, orgId: string): Promise<{ requestsAfter: number; visibleTx: string }> {
  const [row] = rowsOf<{ requests_after: number | null; visible_tx: string }>(
    await db.execute(sql`
      select (select max(id)::float8 from request_log where org_id = ${orgId}) as requests_after, ${VISIBLE}::text as visible_tx`),
  );
  return { requestsAfter: row?.requests_after ?? 0, visibleTx: row!.visible_tx };
}
