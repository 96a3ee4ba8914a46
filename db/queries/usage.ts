import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { FOLDED_GRAINS } from "@/db/rollups";
import { aggregateUsage, type UsagePart } from "@/core/usage-aggregate";
import { decodeSnapshot, snapshotLevelFor, type SnapshotLevel } from "@/core/usage-snapshot";
import { epochMs, partsOf, periodMs, periodWithin, ROLLUP_PART_COLUMNS, ROLLUP_TABLES } from "@/db/rollup-parts";
import { statusBounds } from "@/core/request-log";
import { ceilToGrain, floorToGrain, ROLLUP_GRAIN_MS, ROLLUP_GRAINS, type RollupGrain } from "@/core/usage-grains";
import type { UsageQuery, UsageRow } from "@/core/usage-query";

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
  const filters: SQL[] = [];
  if (query.keyId) filters.push(sql` and r.api_key_id = ${query.keyId}`);
  if (query.endpoint) filters.push(sql` and r.endpoint = ${query.endpoint}`);
  if (query.method) filters.push(sql` and r.endpoint like ${`${query.method} %`}`);
  if (query.status) {
    const { min, max } = statusBounds(query.status);
    filters.push(sql` and r.status between ${min} and ${max}`);
  }
  const periodStart = query.bucket === null ? sql`0::float8` : periodMs(piece.grain, column);
  const rolled = sql`select ${periodStart} as period_ms, ${ROLLUP_PART_COLUMNS}
    from ${sql.identifier(table)} r where r.org_id = ${query.orgId} and ${periodWithin(piece.grain, column, piece.from, piece.to)}${sql.join(filters)}`;
  if (!(FOLDED_GRAINS as readonly string[]).includes(piece.grain)) return rolled;
  const pendingStart = query.bucket === null ? sql`0::float8` : periodMs(piece.grain, sql.raw(periodOf));
  return sql`${rolled} union all
    select ${pendingStart} as period_ms, r.api_key_id, r.endpoint, r.status, 1::bigint, array[r.latency_bucket], array[1::bigint]
    from request_rollup_pending r where r.org_id = ${query.orgId} and r.created_at >= ${piece.from.toISOString()} and r.created_at < ${piece.to.toISOString()}${sql.join(filters)}`;
}

/** Whole days a whole-window read takes from period documents one by one; beyond, from two cumulative ones. */
const PERIOD_DOCUMENTS_AT_MOST = 3;

/** Where the parts of a stretch of the window come from: rollup rows, the periods' snapshots, or two cumulative day snapshots. */
type Source = { kind: "rows"; piece: Piece } | { kind: "periods" | "cumulative"; piece: Piece };

/** Each piece from the snapshots as far as they reach (db/usage-snapshots.ts), the rest from rollup rows. */
function sourcesOf(pieces: Piece[], reach: Record<"hour" | "day", number>, wholeWindow: boolean): Source[] {
  const sources: Source[] = [];
  for (const piece of pieces) {
    if (piece.grain === "minute") {
      sources.push({ kind: "rows", piece });
      continue;
    }
    const split = new Date(Math.min(piece.to.getTime(), Math.max(piece.from.getTime(), reach[piece.grain])));
    if (split > piece.from) {
      const days = (split.getTime() - piece.from.getTime()) / ROLLUP_GRAIN_MS.day;
      const kind = wholeWindow && piece.grain === "day" && days > PERIOD_DOCUMENTS_AT_MOST ? "cumulative" : "periods";
      sources.push({ kind, piece: { ...piece, to: split } });
    }
    if (piece.to <= split) continue;
    // The days not snapshotted yet (today's) as far as their hours are, then the hours' own rows: the current hour's, not the whole day's.
    const hours = new Date(Math.min(piece.to.getTime(), reach.hour));
    if (wholeWindow && piece.grain === "day" && hours > split) {
      sources.push({ kind: "periods", piece: { grain: "hour", from: split, to: hours } });
      if (piece.to > hours) sources.push({ kind: "rows", piece: { grain: "hour", from: hours, to: piece.to } });
    } else {
      sources.push({ kind: "rows", piece: { ...piece, from: split } });
    }
  }
  return sources;
}

async function snapshotReach(orgId: string): Promise<Record<"hour" | "day", number>> {
  const [mark] = rowsOf<{ hours: number | null; days: number | null }>(
    await getDb().execute(sql`select ${epochMs(sql.raw("hours_through"))} as hours, ${epochMs(sql.raw("days_through"))} as days from usage_snapshot_mark where org_id = ${orgId}`),
  );
  return { hour: Number(mark?.hours ?? 0), day: Number(mark?.days ?? 0) };
}

/** The documents of the snapshot sources, each with its period's start and the sign it counts with. */
function documentsOf(query: UsageQuery, sources: Source[], level: SnapshotLevel): SQL | null {
  const selects = sources.flatMap(({ kind, piece }): SQL[] => {
    const where = sql`org_id = ${query.orgId} and grain = ${piece.grain} and level = ${level}`;
    const period = epochMs(sql.raw("period_start"));
    if (kind === "periods") {
      return [sql`select ${period} as period_ms, 1 as sign, document from usage_snapshot
        where ${where} and kind = 'period' and period_start >= ${piece.from.toISOString()} and period_start < ${piece.to.toISOString()}`];
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

/** The parts of the window's pieces that match the query's filters: from snapshots where they reach, from rollup rows elsewhere. */
async function usageParts(query: UsageQuery, pieces: Piece[]): Promise<UsagePart[]> {
  if (pieces.length === 0) return [];
  const sources = sourcesOf(pieces, await snapshotReach(query.orgId), query.bucket === null);
  const rowPieces = sources.filter((source) => source.kind === "rows").map((source) => source.piece);
  const level = snapshotLevelFor(query);
  const documents = documentsOf(query, sources, level);
  const [rows, snapshots] = await Promise.all([
    rowPieces.length === 0 ? [] : getDb().execute(sql.join(rowPieces.map((piece) => pieceRows(query, piece)), sql` union all `)),
    documents === null ? [] : getDb().execute(documents),
  ]);
  const parts = partsOf(rows);
  for (const { period_ms, sign, document } of rowsOf<{ period_ms: number; sign: number; document: string }>(snapshots)) {
    parts.push(...decodeSnapshot(document, Number(period_ms), Number(sign) < 0 ? -1 : 1, query));
  }
  return parts;
}

// A page of periodic rows is read a few periods at a time, more each round, until it is full.
const FIRST_PERIODS_OF_A_PAGE = 4;

/**
 * The query's rows: requests, 4xx and 5xx per bucket and group, and latency percentiles from the
 * merged histograms of the same rollup rows (core/usage-aggregate.ts), ordered by bucket, then key,
 * endpoint and status, and from the row after `after` when the query asks for a page.
 * Counts equal the request log's for the same rows: the daily rollups are written in the log's
 * transaction (db/queries/request-log-writer.ts), and the minute and hour pieces add the requests
 * not yet folded into theirs (pieceRows).
 */
export async function usageRows(query: UsageQuery): Promise<UsageRow[]> {
  if (query.bucket === null) return aggregateUsage(await usageParts(query, windowPieces(query.from, query.to)), query);
  const grain = query.bucket;
  // A later page needs no period before the cursor's.
  let from = query.after ? new Date(Math.max(query.from.getTime(), Date.parse(query.after.bucketStart))) : query.from;
  if (query.limit === undefined) return aggregateUsage(await usageParts(query, [{ grain, from, to: query.to }]), query);
  // Rows are ordered by period first, so a page is complete once it holds `limit` rows of whole periods.
  const rows: UsageRow[] = [];
  let periods = FIRST_PERIODS_OF_A_PAGE;
  while (from < query.to && rows.length < query.limit) {
    const to = new Date(Math.min(query.to.getTime(), from.getTime() + periods * ROLLUP_GRAIN_MS[grain]));
    rows.push(...aggregateUsage(await usageParts(query, [{ grain, from, to }]), { ...query, limit: query.limit - rows.length }));
    from = to;
    periods *= 4;
  }
  return rows;
}
