import { LATENCY_BUCKET_COUNT, LATENCY_PERCENTILES, latencyBucketMs } from "@/core/latency-histogram";
import type { UsagePart } from "@/core/usage-part";
import type { UsageCursor, UsageGroup, UsageQuery, UsageRow } from "@/core/usage-query";

/**
 * The merge behind every usage read: rollup rows in, the query's rows out. The database only
 * selects the rows of a window (db/queries/usage.ts); summing their counts and merging their
 * histograms here costs a tenth of doing it in SQL, where unnesting every histogram and grouping
 * by text keys took about 1 µs per bucket, and the percentile of each group a function call of
 * its own (docs/decisions/0041-usage-merged-in-the-application.md).
 */

type Ordered = Pick<UsageRow, "bucketStart" | "keyId" | "endpoint" | "status">;

interface Group extends Ordered {
  requests: number;
  errors4xx: number;
  errors5xx: number;
  /** Requests per bucket, dense up to the highest bucket seen (merging is most of a read's work), grown as needed. */
  histogram: Float64Array;
}

/** Code-unit order, as PostgreSQL's C collation and the cursors of /v1/usage have it. */
function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** The order of usage rows: by bucket, then key, endpoint and status (the groups a query has). */
export function compareUsageRows(a: Ordered, b: Ordered): number {
  return (
    compareText(a.bucketStart, b.bucketStart) || compareText(a.keyId, b.keyId) || compareText(a.endpoint, b.endpoint) || (a.status ?? -1) - (b.status ?? -1)
  );
}

const PERCENTILES = [LATENCY_PERCENTILES.p50, LATENCY_PERCENTILES.p95, LATENCY_PERCENTILES.p99];

/** The durations at or below which p50, p95 and p99 of the histogram's requests fall (nearest rank), to 0.01 ms; null when it is empty. */
function percentilesOf(histogram: Float64Array): (number | null)[] {
  let total = 0;
  for (let bucket = 0; bucket < histogram.length; bucket++) total += histogram[bucket]!;
  const values: (number | null)[] = PERCENTILES.map(() => null);
  if (total <= 0) return values;
  const ranks = PERCENTILES.map((percent) => Math.ceil((total * percent) / 100));
  let atOrBelow = 0;
  let next = 0;
  for (let bucket = 0; bucket < histogram.length && next < ranks.length; bucket++) {
    atOrBelow += histogram[bucket]!;
    while (next < ranks.length && atOrBelow >= ranks[next]!) values[next++] = Math.round(latencyBucketMs(bucket) * 100) / 100;
  }
  return values;
}

function rowOf(group: Group): UsageRow {
  const [p50Ms, p95Ms, p99Ms] = percentilesOf(group.histogram);
  return {
    bucketStart: group.bucketStart,
    keyId: group.keyId,
    endpoint: group.endpoint,
    status: group.status,
    requests: group.requests,
    errors4xx: group.errors4xx,
    errors5xx: group.errors5xx,
    p50Ms: p50Ms!,
    p95Ms: p95Ms!,
    p99Ms: p99Ms!,
  };
}

const EMPTY_HISTOGRAM = new Float64Array(0);

/** A histogram with room for `bucket`: a power of two of buckets, at most all of them. */
function grown(histogram: Float64Array, bucket: number): Float64Array {
  let size = Math.max(64, histogram.length);
  while (size <= bucket) size *= 2;
  const larger = new Float64Array(Math.min(size, Math.max(LATENCY_BUCKET_COUNT, bucket + 1)));
  larger.set(histogram);
  return larger;
}

type Grouping = Pick<UsageQuery, "from" | "bucket" | "groupBy">;

/** The parts summed per bucket and group. A part may count negatively (a cumulative snapshot taken off another), so groups left with no request are dropped. */
function groupParts(parts: Iterable<UsagePart>, query: Grouping): Group[] {
  const byKey = query.groupBy.includes("key");
  const byEndpoint = query.groupBy.includes("endpoint");
  const byStatus = query.groupBy.includes("status");
  const windowStart = query.from.toISOString();
  const periodNames = new Map<number, string>();
  const groups = new Map<string, Group>();
  for (const part of parts) {
    let bucketStart = windowStart;
    if (query.bucket !== null) {
      bucketStart = periodNames.get(part.periodStart) ?? new Date(part.periodStart).toISOString();
      periodNames.set(part.periodStart, bucketStart);
    }
    const keyId = byKey ? part.keyId : null;
    const endpoint = byEndpoint ? part.endpoint : null;
    const status = byStatus ? part.status : null;
    const id = `${bucketStart}\n${keyId}\n${endpoint}\n${status}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { bucketStart, keyId, endpoint, status, requests: 0, errors4xx: 0, errors5xx: 0, histogram: EMPTY_HISTOGRAM }));
    group.requests += part.count;
    group.errors4xx += part.errors4xx;
    group.errors5xx += part.errors5xx;
    const { buckets, counts } = part;
    if (buckets.length === 0) continue;
    if (buckets[buckets.length - 1]! >= group.histogram.length) group.histogram = grown(group.histogram, buckets[buckets.length - 1]!);
    const histogram = group.histogram;
    for (let i = 0; i < buckets.length; i++) histogram[buckets[i]!]! += counts[i]!;
  }
  return [...groups.values()].filter((group) => group.requests !== 0);
}

/**
 * The query's rows from the parts that match its window and filters: requests, 4xx and 5xx per
 * bucket and group, and percentiles from the merged histograms, in the rows' order, from the row
 * after `after`, at most `limit`.
 */
export function aggregateUsage(parts: Iterable<UsagePart>, query: Grouping & Pick<UsageQuery, "after" | "limit">): UsageRow[] {
  const after: UsageCursor | undefined = query.after;
  const ordered = groupParts(parts, query)
    .filter((group) => !after || compareUsageRows(group, after) > 0)
    .sort(compareUsageRows);
  return (query.limit === undefined ? ordered : ordered.slice(0, query.limit)).map(rowOf);
}

/** The parts summed per the groups given, one part each, undated (period 0); empty buckets left out. */
export function mergeUsageParts(parts: Iterable<UsagePart>, groupBy: readonly UsageGroup[]): UsagePart[] {
  return groupParts(parts, { from: new Date(0), bucket: null, groupBy }).map((group) => {
    const buckets: number[] = [];
    const counts: number[] = [];
    group.histogram.forEach((count, bucket) => {
      if (count === 0) return;
      buckets.push(bucket);
      counts.push(count);
    });
    return {
      periodStart: 0,
      keyId: group.keyId ?? "",
      endpoint: group.endpoint ?? "",
      status: group.status ?? 0,
      count: group.requests,
      errors4xx: group.errors4xx,
      errors5xx: group.errors5xx,
      buckets,
      counts,
    };
  });
}
