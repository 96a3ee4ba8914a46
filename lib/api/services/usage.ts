import { usageRows } from "@/db/queries/usage";
import { ceilToGrain, floorToGrain, HOURLY_ROLLUP_RETENTION_DAYS, REQUEST_LOG_RETENTION_MONTHS, ROLLUP_GRAIN_MS, rollupKeptSince } from "@/core/usage-grains";
import { USAGE_GROUPS, type UsageCursor, type UsageRow } from "@/core/usage-query";
import type { UsageListDto, UsageQueryInput } from "../schemas/usage";
import { invalid } from "./refusals";

/** A day (`2026-11-01`) is its first instant, UTC. */
function instant(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

type Bucket = "hour" | "day";

/**
 * The bucket of a query that names none (the `bucket` parameter's description says the rule):
 * hours when either end is an instant inside a UTC day, so "the last hour" is not rounded out to
 * its whole day; days otherwise.
 */
function defaultBucket(query: Pick<UsageQueryInput, "from" | "to">): Bucket {
  const insideADay = (value: string | undefined) => value !== undefined && instant(value).getTime() % ROLLUP_GRAIN_MS.day !== 0;
  return insideADay(query.from) || insideADay(query.to) ? "hour" : "day";
}

/** The window on its buckets' boundaries: `from` rounded down, `to` (now by default) rounded up; within what is kept. */
export function usageWindow(query: Pick<UsageQueryInput, "from" | "to" | "bucket">, now: Date): { from: Date; to: Date; bucket: Bucket } {
  const bucket = query.bucket ?? defaultBucket(query);
  const from = new Date(floorToGrain(instant(query.from).getTime(), bucket));
  const to = new Date(ceilToGrain((query.to ? instant(query.to) : now).getTime(), bucket));
  if (to <= from) throw invalid("query.to", "to must be after from.");
  if (from < rollupKeptSince(bucket, now)) {
    const reach = bucket === "hour" ? `${HOURLY_ROLLUP_RETENTION_DAYS} days, by the hour` : `${REQUEST_LOG_RETENTION_MONTHS} months (this month and the 12 before it)`;
    const hint = query.bucket === undefined ? " (the bucket when from or to is inside a day)" : "";
    throw invalid("query.from", `Usage reaches back ${reach}${bucket === "hour" ? `${hint}: ask for bucket=day, or a later from` : ""}.`);
  }
  return { from, to, bucket };
}

/** A row's place, as the opaque `next_cursor` the client passes back. */
function encodeCursor(row: UsageRow): string {
  return Buffer.from(JSON.stringify([row.bucketStart, row.keyId, row.endpoint, row.status])).toString("base64url");
}

function decodeCursor(cursor: string): UsageCursor {
  try {
    const [bucketStart, keyId, endpoint, status] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const textOrNull = (value: unknown) => value === null || typeof value === "string";
    if (typeof bucketStart === "string" && !Number.isNaN(Date.parse(bucketStart)) && textOrNull(keyId) && textOrNull(endpoint) && (status === null || Number.isInteger(status))) {
      return { bucketStart, keyId: keyId as string | null, endpoint: endpoint as string | null, status: status as number | null };
    }
  } catch {
    // Not base64url JSON: refused below like any other cursor this endpoint did not give.
  }
  throw invalid("query.starting_after", "Not a cursor this endpoint gave: pass a next_cursor back unchanged.");
}

/** One page of the organization's usage rows (docs/features/usage-analytics.md). */
export async function usage(orgId: string, query: UsageQueryInput, now = new Date()): Promise<UsageListDto> {
  const { from, to, bucket } = usageWindow(query, now);
  const requested = new Set(query.group_by?.split(","));
  const rows = await usageRows({
    orgId,
    from,
    to,
    bucket,
    groupBy: USAGE_GROUPS.filter((group) => requested.has(group)),
    keyId: query.key_id,
    endpoint: query.endpoint,
    status: query.status,
    limit: query.limit + 1,
    after: query.starting_after === undefined ? undefined : decodeCursor(query.starting_after),
  });
  const data = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    object: "list",
    data: data.map((row) => ({
      object: "usage_row",
      bucket_start: row.bucketStart,
      key_id: row.keyId,
      endpoint: row.endpoint,
      status: row.status,
      requests: row.requests,
      errors_4xx: row.errors4xx,
      errors_5xx: row.errors5xx,
      p50_ms: row.p50Ms,
      p95_ms: row.p95Ms,
      p99_ms: row.p99Ms,
    })),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(data[data.length - 1]!) : null,
  };
}
