import "server-only";
import { rollupParts, snapshotDocuments, snapshotReach, type Piece, type Source } from "@/db/queries/usage";
import type { UsagePart } from "@/core/usage-part";
import { ceilToGrain, floorToGrain, requestsOfPeriods, ROLLUP_GRAIN_MS, ROLLUP_GRAINS, type RollupGrain } from "@/core/usage-grains";
import type { UsageQuery, UsageRow } from "@/core/usage-query";
import { snapshotLevelFor } from "@/core/usage-snapshot-levels";
import { clickhouseUrl } from "@/db/clickhouse/client";
import { analyticsStoreParts } from "@/lib/analytics/usage";
import { aggregateUsage } from "./aggregate";
import { decodeSnapshot } from "./snapshot-document";

/**
 * Every usage read (docs/features/usage-analytics.md): which stretch of a window is read from
 * which rollup grain or snapshot, merged (lib/usage/aggregate.ts) and paged. The statements are
 * db/queries/usage.ts's.
 */

const COARSEST_FIRST = [...ROLLUP_GRAINS].reverse();

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

/** Whole days a whole-window read takes from period documents one by one; beyond, from two cumulative ones. */
const PERIOD_DOCUMENTS_AT_MOST = 3;

/** Each piece from the snapshots as far as they reach (lib/usage/snapshots.ts), the rest from rollup rows. */
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

/** The parts of the window's pieces that match the query's filters: from snapshots where they reach, from rollup rows elsewhere. */
async function usageParts(query: UsageQuery, pieces: Piece[]): Promise<UsagePart[]> {
  if (pieces.length === 0) return [];
  if (clickhouseUrl()) {
    const { from, to } = requestsOfPeriods(query.bucket ?? "minute", pieces[0]!.from, pieces.at(-1)!.to);
    return analyticsStoreParts(query, from, to);
  }
  const sources = sourcesOf(pieces, await snapshotReach(query.orgId), query.bucket === null);
  const rowPieces = sources.filter((source) => source.kind === "rows").map((source) => source.piece);
  const [parts, documents] = await Promise.all([rollupParts(query, rowPieces), snapshotDocuments(query, sources, snapshotLevelFor(query))]);
  for (const { periodStart, sign, document } of documents) parts.push(...decodeSnapshot(document, periodStart, sign, query));
  return parts;
}

// A page of periodic rows is read a few periods at a time, more each round, until it is full.
const FIRST_PERIODS_OF_A_PAGE = 4;

/**
 * The query's rows: requests, 4xx and 5xx per bucket and group, and latency percentiles from the
 * merged histograms of the same rollup rows (lib/usage/aggregate.ts), ordered by bucket, then key,
 * endpoint and status, and from the row after `after` when the query asks for a page.
 * Counts equal the request log's for the same rows: the daily rollups are written in the log's
 * transaction (db/queries/request-log-writer.ts), and the minute and hour pieces add the requests
 * not yet folded into theirs (pieceRows in db/queries/usage.ts).
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
