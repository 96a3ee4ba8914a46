import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";

/**
 * The request log's export to an analytics store (docs/features/analytics-store.md): the log is the
 * outbox, read after the export's cursor in id order, which is commit order
 * (db/queries/request-log-writer.ts), on its block range index over the ids.
 */

/** The store the export writes and the reads take its cursor from: one, ClickHouse (the cursor row's key). */
export const ANALYTICS_DESTINATION = "clickhouse";

/** A request-log row as the store keeps it (db/clickhouse/migrations). */
export interface ExportedRequest {
  id: number;
  org_id: string;
  mode: string;
  api_key_id: string;
  request_id: string;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  duration_ms: number;
  latency_bucket: number;
  ip: string | null;
  user_agent: string | null;
  error_code: string | null;
  trace_id: string | null;
  /** UTC, to the microsecond, as ClickHouse reads a DateTime64(6): "2026-11-29 10:00:00.123456". */
  created_at: string;
}

/** The cursor's row: the id through which the log is in the store (no row before the first export). */
const CURSOR = sql`select exported_through from analytics_exports where destination = ${ANALYTICS_DESTINATION}`;

/** The id through which the log is in the store; 0 before its first export. */
export async function exportedThrough(db: DbOrTx): Promise<number> {
  const [row] = rowsOf<{ exported_through: number | string }>(await db.execute(CURSOR));
  return Number(row?.exported_through ?? 0);
}

/**
 * Takes the export's lease for `leaseMs` unless another run holds it; returns the cursor, or null
 * when another run is exporting. One run at a time across processes, without holding a connection
 * while the store is written.
 */
export async function claimExport(db: DbOrTx, token: string, leaseMs: number): Promise<number | null> {
  await db.execute(sql`insert into analytics_exports (destination) values (${ANALYTICS_DESTINATION}) on conflict (destination) do nothing`);
  const [row] = rowsOf<{ through: number | string }>(
    await db.execute(sql`
      update analytics_exports set lease_token = ${token}, leased_until = now() + make_interval(secs => ${leaseMs / 1000})
      where destination = ${ANALYTICS_DESTINATION} and (leased_until is null or leased_until < now())
      returning exported_through as through`),
  );
  return row ? Number(row.through) : null;
}

/** Moves the cursor to `through` and renews the lease; false when the lease was lost (it lapsed and another run took it). */
export async function markExported(db: DbOrTx, token: string, through: number, leaseMs: number): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      update analytics_exports set exported_through = greatest(exported_through, ${through}), updated_at = now(),
        leased_until = now() + make_interval(secs => ${leaseMs / 1000})
      where destination = ${ANALYTICS_DESTINATION} and lease_token = ${token}
      returning 1`),
  );
  return rows.length > 0;
}

/** Ends the run's lease, so the next run need not wait for it to lapse. */
export async function releaseExport(db: DbOrTx, token: string): Promise<void> {
  await db.execute(
    sql`update analytics_exports set lease_token = null, leased_until = null where destination = ${ANALYTICS_DESTINATION} and lease_token = ${token}`,
  );
}

const EXPORTED_COLUMNS = sql`
  r.id::float8 as id, r.org_id, coalesce((select k.mode::text from api_keys k where k.id = r.api_key_id), 'live') as mode, r.api_key_id,
  r.request_id, r.method, r.path, r.endpoint, r.status, r.duration_ms, latency_bucket(r.duration_ms) as latency_bucket, r.ip,
  r.user_agent, r.error_code, r.trace_id::text as trace_id, to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as created_at`;

/** How many ids past the cursor one read covers, for `limit` rows: ids are dense but for batches rolled back. */
const IDS_PER_ROW = 2;

/**
 * The rows after id `after`, of every organization, oldest first, at most `limit`, each with its
 * key's mode (live for a key no longer there). The block range index gives no order, so an
 * unbounded read would visit every row after the cursor for each batch (a backfill quadratic in
 * its rows): a read covers the next `limit × IDS_PER_ROW` ids, and only past a gap that wide
 * looks for the next id at all.
 */
export async function requestsToExport(db: DbOrTx, after: number, limit: number): Promise<ExportedRequest[]> {
  const read = async (from: number) =>
    rowsOf<ExportedRequest>(
      await db.execute(sql`
        select ${EXPORTED_COLUMNS} from request_log r
        where r.id > ${from} and r.id <= ${from + limit * IDS_PER_ROW}
        order by r.id limit ${limit}`),
    ).map((row) => ({ ...row, id: Number(row.id) }));
  const rows = await read(after);
  if (rows.length > 0) return rows;
  const [next] = rowsOf<{ id: number | string | null }>(await db.execute(sql`select min(id) as id from request_log where id > ${after}`));
  return next?.id == null ? [] : read(Number(next.id) - 1);
}

/** The newest id committed by now past the cursor, or null when the store holds every row: where a run stops. */
export async function newestUnexportedId(db: DbOrTx): Promise<number | null> {
  const [row] = rowsOf<{ id: number | string | null }>(
    await db.execute(sql`
      select max(id) as id from request_log
      where id > coalesce((${CURSOR}), 0)`),
  );
  return row?.id == null ? null : Number(row.id);
}
