import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { FOLDED_GRAINS } from "@/db/rollups/statements";
import { epochMs, partsOf, periodMs, periodWithin, ROLLUP_PART_COLUMNS, ROLLUP_TABLES } from "@/db/rollups/tables";
import { statusBounds } from "@/core/request-log";
import type { UsagePart } from "@/core/usage-part";
import { requestsOfPeriods, type RollupGrain } from "@/core/usage-grains";
import type { UsageQuery } from "@/core/usage-query";
import type { SnapshotLevel } from "@/core/usage-snapshot-levels";
import { keyOfMode } from "./keys-of-mode";

/**
 * The statements of a usage read: the rollup rows of stretches of a window and the snapshot
 * documents of others. Which stretch comes from where, and merging what they return, is
 * lib/usage/rows.ts's.
 */

/** One stretch of the window and the grain whose rows cover it exactly. */
export interface Piece {
  grain: RollupGrain;
  from: Date;
  to: Date;
}

/**
 * The rollup rows of one piece that match the query's filters, with their period's start. A
 * minute or hour piece adds the requests not yet folded into its rollups (request_rollup_pending),
 * each a row of one request and a one-bucket histogram, so the answer is current to the response:
 * those of the periods its rows hold, so an answer is the same folded or not.
 */
function pieceRows(query: UsageQuery, piece: Piece): SQL {
  const { table, period, periodOf } = ROLLUP_TABLES[piece.grain];
  const column = sql.raw(`r.${period}`);
  const filters = usageFilters(query);
  const periodStart = query.bucket === null ? sql`0::float8` : periodMs(piece.grain, column);
  const rolled = sql`select ${periodStart} as period_ms, ${ROLLUP_PART_COLUMNS}
    from ${sql.identifier(table)} r where r.org_id = ${query.orgId} and ${periodWithin(piece.grain, column, piece.from, piece.to)}${sql.join(filters)}`;
  if (!(FOLDED_GRAINS as readonly string[]).includes(piece.grain)) return rolled;
  const pendingStart = query.bucket === null ? sql`0::float8` : periodMs(piece.grain, sql.raw(periodOf));
  const requests = requestsOfPeriods(piece.grain, piece.from, piece.to);
  return sql`${rolled} union all
    select ${pendingStart} as period_ms, r.api_key_id, r.endpoint, r.status, 1::bigint, array[r.latency_bucket], array[1::bigint]
    from request_rollup_pending r where r.org_id = ${query.orgId} and r.created_at >= ${requests.from.toISOString()} and r.created_at < ${requests.to.toISOString()}${sql.join(filters)}`;
}

/** The query's mode and filters as conditions on rows `r` of the log or its rollups, each led by "and". */
function usageFilters(query: UsageQuery): SQL[] {
  const filters: SQL[] = [sql` and ${keyOfMode(sql.raw("r.api_key_id"), query)}`];
  if (query.keyId) filters.push(sql` and r.api_key_id = ${query.keyId}`);
  if (query.endpoint) filters.push(sql` and r.endpoint = ${query.endpoint}`);
  if (query.method) filters.push(sql` and r.endpoint like ${`${query.method} %`}`);
  if (query.status) {
    const { min, max } = statusBounds(query.status);
    filters.push(sql` and r.status between ${min} and ${max}`);
  }
  return filters;
}

/**
 * The requests of the window after request-log id `after` that match the query's filters, each a
 * part of one request with a one-bucket histogram: what an analytics store has not been sent yet
 * (lib/analytics/usage.ts), read on the log's (org_id, id) index.
 */
export async function unexportedParts(query: UsageQuery, from: Date, to: Date, after: number): Promise<UsagePart[]> {
  const periodStart = query.bucket === null ? sql`0::float8` : periodMs(query.bucket, sql.raw(ROLLUP_TABLES[query.bucket].periodOf));
  return partsOf(
    await getDb().execute(sql`
      select ${periodStart} as period_ms, r.api_key_id, r.endpoint, r.status, 1::bigint as count,
             array[latency_bucket(r.duration_ms)] as latency_buckets, array[1::bigint] as latency_counts
      from request_log r
      where r.org_id = ${query.orgId} and r.id > ${after} and r.created_at >= ${from.toISOString()} and r.created_at < ${to.toISOString()}${sql.join(usageFilters(query))}`),
  );
}

/** Where the parts of a stretch of the window come from: rollup rows, the periods' snapshots, or two cumulative day snapshots. */
export type Source = { kind: "rows"; piece: Piece } | { kind: "periods" | "cumulative"; piece: Piece };

/** How far the organization's snapshots reach (lib/usage/snapshots.ts), each grain's end in epoch ms. */
export async function snapshotReach(orgId: string): Promise<Record<"hour" | "day", number>> {
  const [mark] = rowsOf<{ hours: number | null; days: number | null }>(
    await getDb().execute(
      sql`select ${epochMs(sql.raw("hours_through"))} as hours, ${epochMs(sql.raw("days_through"))} as days from usage_snapshot_mark where org_id = ${orgId}`,
    ),
  );
  return { hour: Number(mark?.hours ?? 0), day: Number(mark?.days ?? 0) };
}

/** The documents of the snapshot sources, each with its period's start and the sign it counts with. */
function documentsOf(query: UsageQuery, sources: Source[], level: SnapshotLevel): SQL | null {
  const selects = sources.flatMap(({ kind, piece }): SQL[] => {
    const where = sql`org_id = ${query.orgId} and mode = ${query.mode} and grain = ${piece.grain} and level = ${level}`;
    const period = epochMs(sql.raw("period_start"));
    if (kind === "periods") {
      return [
        sql`select ${period} as period_ms, 1 as sign, document from usage_snapshot
        where ${where} and kind = 'period' and period_start >= ${piece.from.toISOString()} and period_start < ${piece.to.toISOString()}`,
      ];
    }
    if (kind !== "cumulative") return [];
    // Every request through the stretch's last day, less every request before its first.
    return [
      sql`(select ${period} as period_ms, 1 as sign, document from usage_snapshot
        where ${where} and kind = 'cumulative' and period_start < ${piece.to.toISOString()} order by period_start desc limit 1)`,
      sql`(select ${period} as period_ms, -1 as sign, document from usage_snapshot
        where ${where} and kind = 'cumulative' and period_start < ${piece.from.toISOString()} order by period_start desc limit 1)`,
    ];
  });
  return selects.length === 0 ? null : sql.join(selects, sql` union all `);
}

/** The rollup rows of the pieces that match the query's filters (pieceRows), as parts. */
export async function rollupParts(query: UsageQuery, pieces: Piece[]): Promise<UsagePart[]> {
  return partsOf(
    pieces.length === 0
      ? []
      : await getDb().execute(
          sql.join(
            pieces.map((piece) => pieceRows(query, piece)),
            sql` union all `,
          ),
        ),
  );
}

/** The documents of the snapshot sources at the query's level (documentsOf), each with its period's start and sign. */
export async function snapshotDocuments(
  query: UsageQuery,
  sources: Source[],
  level: SnapshotLevel,
): Promise<{ periodStart: number; sign: 1 | -1; document: string }[]> {
  const documents = documentsOf(query, sources, level);
  const rows = rowsOf<{ period_ms: number; sign: number; document: string }>(documents === null ? [] : await getDb().execute(documents));
  return rows.map(({ period_ms, sign, document }) => ({ periodStart: Number(period_ms), sign: Number(sign) < 0 ? -1 : 1, document }));
}
