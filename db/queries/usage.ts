import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/partitions";
import { FOLDED_GRAINS, ROLLUP_TABLES } from "@/db/rollups";
import { LATENCY_PERCENTILES } from "@/core/latency-histogram";
import { statusBounds } from "@/core/request-log";
import { ceilToGrain, floorToGrain, ROLLUP_GRAINS, type RollupGrain } from "@/core/usage-grains";
import type { UsageCursor, UsageQuery, UsageRow } from "@/core/usage-query";

const COARSEST_FIRST = [...ROLLUP_GRAINS].reverse();

/** One stretch of the window and the grain whose rows cover it exactly. */
interface Piece {
  grain: RollupGrain;
  from: Date;
  to: Date;
}

/**
 * The window as stretches of whole periods, each read from the coarsest grain that fits: whole
 * days from the daily rows, the hours at either end from the hourly rows, then minutes. A
 * bucketed query reads its bucket's grain throughout.
 */
export function windowPieces(from: Date, to: Date, grains: readonly RollupGrain[] = COARSEST_FIRST): Piece[] {
  if (from >= to) return [];
  const [grain, ...finer] = grains;
  if (!grain) throw new Error(`A usage window must start and end on a minute: ${from.toISOString()} to ${to.toISOString()}`);
  const start = new Date(ceilToGrain(from.getTime(), grain));
  const end = new Date(floorToGrain(to.getTime(), grain));
  if (start >= end) return windowPieces(from, to, finer);
  return [...windowPieces(from, start, finer), { grain, from: start, to: end }, ...windowPieces(end, to, finer)];
}

/**
 * The rollup rows of one piece that match the query's filters, with their period's start. A
 * minute or hour piece adds the requests not yet folded into its rollups (request_rollup_pending),
 * each a row of one request and a one-bucket histogram, so the answer is current to the response.
 */
function pieceRows(query: UsageQuery, piece: Piece): SQL {
  const { table, period, periodOf } = ROLLUP_TABLES[piece.grain];
  const column = sql.raw(`r.${period}`);
  const bounds =
    piece.grain === "day"
      ? sql`${column} >= ${piece.from.toISOString().slice(0, 10)} and ${column} < ${piece.to.toISOString().slice(0, 10)}`
      : sql`${column} >= ${piece.from.toISOString()} and ${column} < ${piece.to.toISOString()}`;
  const filters: SQL[] = [];
  if (query.keyId) filters.push(sql` and r.api_key_id = ${query.keyId}`);
  if (query.endpoint) filters.push(sql` and r.endpoint = ${query.endpoint}`);
  if (query.method) filters.push(sql` and r.endpoint like ${`${query.method} %`}`);
  if (query.status) {
    const { min, max } = statusBounds(query.status);
    filters.push(sql` and r.status between ${min} and ${max}`);
  }
  const windowStart = sql`${query.from.toISOString()}::timestamptz`;
  const bucketStart = query.bucket === null ? windowStart : piece.grain === "day" ? sql`(${column}::timestamp at time zone 'UTC')` : column;
  const rolled = sql`select ${bucketStart} as bucket_start, r.api_key_id, r.endpoint, r.status, r.count, r.latency_buckets, r.latency_counts
    from ${sql.identifier(table)} r where r.org_id = ${query.orgId} and ${bounds}${sql.join(filters)}`;
  if (!(FOLDED_GRAINS as readonly string[]).includes(piece.grain)) return rolled;
  const pendingStart = query.bucket === null ? windowStart : sql.raw(periodOf);
  return sql`${rolled} union all
    select ${pendingStart} as bucket_start, r.api_key_id, r.endpoint, r.status, 1::bigint, array[r.latency_bucket], array[1::bigint]
    from request_rollup_pending r where r.org_id = ${query.orgId} and r.created_at >= ${piece.from.toISOString()} and r.created_at < ${piece.to.toISOString()}${sql.join(filters)}`;
}

/** A percentile as reported: to the hundredth of a millisecond; null for rows rolled up without durations. */
function latency(value: unknown): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value) * 100) / 100;
}

/**
 * The query's rows: requests, 4xx and 5xx per bucket and group, and latency percentiles from the
 * merged histograms of the same rollup rows, ordered by bucket, then key, endpoint and status, and
 * from the row after `after` when the query asks for a page.
 * Counts equal the request log's for the same rows: the daily rollups are written in the log's
 * transaction (db/queries/request-log-writer.ts), and the minute and hour pieces add the requests
 * not yet folded into theirs (pieceRows).
 */
export async function usageRows(query: UsageQuery): Promise<UsageRow[]> {
  // A later page of bucketed rows needs no period before the cursor's.
  const from = query.bucket !== null && query.after ? new Date(Math.max(query.from.getTime(), Date.parse(query.after.bucketStart))) : query.from;
  const pieces = query.bucket === null ? windowPieces(from, query.to) : [{ grain: query.bucket, from, to: query.to }];
  if (pieces.length === 0) return [];
  const groups = [
    { column: "bucket_start", cursor: (after: UsageCursor) => sql`${after.bucketStart}::timestamptz` },
    query.groupBy.includes("key") ? { column: "api_key_id", cursor: (after: UsageCursor) => sql`${after.keyId}::text` } : null,
    query.groupBy.includes("endpoint") ? { column: "endpoint", cursor: (after: UsageCursor) => sql`${after.endpoint}::text` } : null,
    query.groupBy.includes("status") ? { column: "status", cursor: (after: UsageCursor) => sql`${after.status}::int2` } : null,
  ].filter((group) => group !== null);
  const groupColumns = sql.raw(groups.map((group) => group.column).join(", "));
  const after = query.after ? sql`where (${groupColumns}) > (${sql.join(groups.map((group) => group.cursor(query.after!)), sql`, `)})` : sql``;
  const limit = query.limit === undefined ? sql`` : sql`limit ${query.limit}`;
  const percentiles = sql.join(
    Object.entries(LATENCY_PERCENTILES).map(([label, percent]) => sql`latency_percentile(array_agg(b order by b), array_agg(n order by b), ${percent}::int) as ${sql.identifier(label)}`),
    sql`, `,
  );
  const result = await getDb().execute(sql`
    with source as (${sql.join(pieces.map((piece) => pieceRows(query, piece)), sql` union all `)}),
    totals as (
      select ${groupColumns}, sum(count)::float8 as requests,
        coalesce(sum(count) filter (where status between 400 and 499), 0)::float8 as errors_4xx,
        coalesce(sum(count) filter (where status between 500 and 599), 0)::float8 as errors_5xx
      from source group by ${groupColumns}
    ),
    per_bucket as (
      select ${groupColumns}, u.b, sum(u.n)::bigint as n from source, unnest(latency_buckets, latency_counts) as u(b, n) group by ${groupColumns}, u.b
    ),
    latency as (select ${groupColumns}, ${percentiles} from per_bucket group by ${groupColumns})
    select * from totals left join latency using (${groupColumns}) ${after} order by ${groupColumns} ${limit}`);
  return rowsOf<Record<string, unknown>>(result).map((row) => ({
    bucketStart: new Date(row.bucket_start as string).toISOString(),
    keyId: (row.api_key_id as string | undefined) ?? null,
    endpoint: (row.endpoint as string | undefined) ?? null,
    status: row.status === undefined ? null : Number(row.status),
    requests: Number(row.requests),
    errors4xx: Number(row.errors_4xx),
    errors5xx: Number(row.errors_5xx),
    p50Ms: latency(row.p50),
    p95Ms: latency(row.p95),
    p99Ms: latency(row.p99),
  }));
}
