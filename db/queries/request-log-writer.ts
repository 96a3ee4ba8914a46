import "server-only";
import { queryPrepared } from "@/db";
import { GroupCommit } from "@/core/group-commit";
import { pendingRollupInsert, rollupStatement, WRITTEN_GRAINS } from "@/db/rollups/statements";

export interface RequestLogEntry {
  orgId: string;
  apiKeyId: string;
  requestId: string;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
  /** The API's error code of a refusal, null for a success. */
  errorCode: string | null;
  at: Date;
  /** Whether the call counts as a use of the key (not refused for being revoked). */
  touchesKey: boolean;
  /** The W3C trace the request belongs to (32 hex digits), null for a row from before traces were kept. */
  traceId: string | null;
  /** What its details page adds (docs/features/audit-log.md#request-details), kept 30 days; null for a success without an Idempotency-Key. */
  detail: RequestDetailEntry | null;
}

/** A request's details beyond its audit row: free of credentials already (lib/api/request-capture.ts). */
export interface RequestDetailEntry {
  idempotencyKey: string | null;
  replayed: boolean;
  errorMessage: string | null;
  requestBody: string | null;
  /** The whole body's size; null when unknown. */
  requestBodyBytes: number | null;
  responseBody: string | null;
  responseBodyBytes: number | null;
}

/**
 * Every batch takes this lock before its rows get their ids and keeps it to its commit, so ids
 * are given in commit order across processes: a reader that has seen id N will never see a
 * smaller one appear later, and the live tail's cursor on the id misses nothing (lib/live-tail).
 */
export const REQUEST_LOG_ORDER_LOCK = 727_301_014;

// The rows of a batch as parallel arrays, unnested into one insert: one statement and one commit
// for every request that finished while the previous batch was being written.
/**
 * $1 org, $2 key, $3 request id, $4 method, $5 path, $6 endpoint, $7 status, $8 ms, $9 IP, $10 user agent, $11 time, $12 touches the key, $13 error code, $24 trace id: one array each.
 * The details, for the requests that have them: $14 org, $15 time, $16 request id, $17 Idempotency-Key, $18 replayed, $19 error message, $20 request body, $21 its size, $22 response body, $23 its size.
 */
export const WRITE_REQUEST_LOG = `
  with batch as (
    -- Every other part reads the batch, so the lock comes before anything else is written or locked.
    select r.*, latency_bucket(r.duration_ms) as latency_bucket
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int2[], $8::int4[], $9::text[], $10::text[], $11::timestamptz[], $12::bool[], $13::text[], $24::uuid[])
      as r(org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at, touches_key, error_code, trace_id),
      (select pg_advisory_xact_lock(${REQUEST_LOG_ORDER_LOCK})) as commit_order
  ), logged as (
    insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, error_code, created_at, trace_id)
    select org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, error_code, created_at, trace_id from batch
  ), detailed as (
    insert into request_detail (org_id, created_at, request_id, idempotency_key, replayed, error_message, request_body, request_body_bytes, response_body, response_body_bytes)
    select * from unnest($14::text[], $15::timestamptz[], $16::text[], $17::text[], $18::bool[], $19::text[], $20::text[], $21::int4[], $22::text[], $23::int4[])
  ), ${WRITTEN_GRAINS.map((grain) => `rolled_by_${grain} as (${rollupStatement(grain, "batch", "add")})`).join(", ")}, pending as (
    ${pendingRollupInsert("batch")}
  ), used as (
    select distinct on (org_id, api_key_id) org_id, api_key_id, created_at as at, ip, endpoint from batch
    where touches_key order by org_id, api_key_id, created_at desc
  ), touched as (
    -- The key's last use (time, client, route), at most once a minute.
    select k.org_id, k.id, u.at, u.ip, u.endpoint from api_keys k join used u on u.org_id = k.org_id and u.api_key_id = k.id
    where k.last_used_at is null or k.last_used_at < u.at - interval '1 minute'
    order by k.org_id, k.id for update of k
  )
  update api_keys k set last_used_at = t.at, last_used_ip = t.ip, last_used_endpoint = t.endpoint
  from touched t where k.org_id = t.org_id and k.id = t.id`;

/** The request-log batch as the parallel arrays WRITE_REQUEST_LOG unnests. */
async function writeRequestLogBatch(rows: RequestLogEntry[]): Promise<void[]> {
  const column = <T>(pick: (entry: RequestLogEntry) => T) => rows.map(pick);
  const detailed = rows.filter((e) => e.detail);
  const detail = <T>(pick: (detail: RequestDetailEntry, entry: RequestLogEntry) => T) => detailed.map((e) => pick(e.detail!, e));
  await queryPrepared(
    WRITE_REQUEST_LOG,
    [
      column((e) => e.orgId),
      column((e) => e.apiKeyId),
      column((e) => e.requestId),
      column((e) => e.method),
      column((e) => e.path),
      column((e) => e.endpoint),
      column((e) => e.status),
      column((e) => e.durationMs),
      column((e) => e.ip),
      column((e) => e.userAgent),
      column((e) => e.at.toISOString()),
      column((e) => e.touchesKey),
      column((e) => e.errorCode),
      detail((_, e) => e.orgId),
      detail((_, e) => e.at.toISOString()),
      detail((_, e) => e.requestId),
      detail((d) => d.idempotencyKey),
      detail((d) => d.replayed),
      detail((d) => d.errorMessage),
      detail((d) => d.requestBody),
      detail((d) => d.requestBodyBytes),
      detail((d) => d.responseBody),
      detail((d) => d.responseBodyBytes),
      column((e) => e.traceId),
    ],
    "request_log",
  );
  return rows.map(() => undefined);
}

// Each request's row, its details, its daily rollup, its pending row for the finer rollups and the key's last-used time go out
// with those of the other requests that finished meanwhile; a request waits for its batch's
// commit, so a response that reached its client has its row.
const requestLogWriter = new GroupCommit("request_log_write", writeRequestLogBatch, (size) => `Writing a batch of ${size} request-log rows failed`);

/** The request's audit row, its rollups and the key's last use; resolves once they are committed. */
export function writeRequestLog(entry: RequestLogEntry): Promise<void> {
  return requestLogWriter.submit(entry);
}
