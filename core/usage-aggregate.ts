import { LATENCY_PERCENTILES, latencyBucketMs } from "./latency-histogram";
import type { UsageCursor, UsageGroup, UsageQuery, UsageRow } from "./usage-query";

/**
 * The merge behind every usage read: rollup rows in, the query's rows out. The database only
 * selects the rows of a window (db/queries/usage.ts); summing their counts and merging their
 * histograms here costs a tenth of doing it in SQL, where unnesting every histogram and grouping
 * by text keys took about 1 µs per bucket, and the percentile of each group a function call of
 * its own (README "Usage analytics", figures).
 */

/** One rollup row as read: the requests of one key, endpoint and status in one period, with their latency histogram. */
export interface UsagePart {
  /** The period's first instant in epoch milliseconds; ignored by a whole-window query. */
  periodStart: number;
  keyId: string;
  endpoint: string;
  status: number;
  count: number;
  /** Histogram buckets ascending (core/latency-histogram.ts) and the requests in each. */
  buckets: readonly number[];
  counts: readonly number[];
}

type Ordered = Pick<UsageRow, "bucketStart" | "keyId" | "endpoint" | "status">;

interface Group extends Ordered {
  requests: number;
  errors4xx: number;
  errors5xx: number;
  histogram: Map<number, number>;
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
    compareText(a.bucketStart, b.bucketStart) ||
    compareText(a.keyId, b.keyId) ||
    compareText(a.endpoint, b.endpoint) ||
    (a.status ?? -1) - (b.status ?? -1)
  );
}

/** The duration at or below which `percent` % of the histogram's requests fall (nearest rank), to 0.01 ms; null when it is empty. */
function percentileOf(sortedBuckets: number[], histogram: Map<number, number>, total: number, percent: number): number | null {
  if (total === 0) return null;
  const rank = Math.ceil((total * percent) / 100);
  let atOrBelow = 0;
  for (const bucket of sortedBuckets) {
    atOrBelow += histogram.get(bucket)!;
    if (atOrBelow >= rank) return Math.round(latencyBucketMs(bucket) * 100) / 100;
  }
  return null;
}

function rowOf(group: Group): UsageRow {
  const buckets = [...group.histogram.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const count of group.histogram.values()) total += count;
  const percentile = (percent: number) => percentileOf(buckets, group.histogram, total, percent);
  return {
    bucketStart: group.bucketStart,
    keyId: group.keyId,
    endpoint: group.endpoint,
    status: group.status,
    requests: group.requests,
    errors4xx: group.errors4xx,
    errors5xx: group.errors5xx,
    p50Ms: percentile(LATENCY_PERCENTILES.p50),
    p95Ms: percentile(LATENCY_PERCENTILES.p95),
    p99Ms: percentile(LATENCY_PERCENTILES.p99),
  };
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
    if (!group) groups.set(id, (group = { bucketStart, keyId, endpoint, status, requests: 0, errors4xx: 0, errors5xx: 0, histogram: new Map() }));
    group.requests += part.count;
    if (part.status >= 400 && part.status <= 499) group.errors4xx += part.count;
    else if (part.status >= 500 && part.status <= 599) group.errors5xx += part.count;
    for (let i = 0; i < part.buckets.length; i++) {
      const bucket = part.buckets[i]!;
      group.histogram.set(bucket, (group.histogram.get(bucket) ?? 0) + part.counts[i]!);
    }
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

/** The parts summed per status and per the groups given, one part each, in the given period; empty buckets left out. */
export function mergeUsageParts(parts: Iterable<UsagePart>, groupBy: readonly UsageGroup[], periodStart: number): UsagePart[] {
  return groupParts(parts, { from: new Date(periodStart), bucket: null, groupBy: [...groupBy, "status"] }).map((group) => {
    const buckets = [...group.histogram.keys()].filter((bucket) => group.histogram.get(bucket) !== 0).sort((a, b) => a - b);
    return {
      periodStart,
      keyId: group.keyId ?? "",
      endpoint: group.endpoint ?? "",
      status: group.status!,
      count: group.requests,
      buckets,
      counts: buckets.map((bucket) => group.histogram.get(bucket)!),
    };
  });
}
