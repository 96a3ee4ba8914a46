import { ceilToGrain, floorToGrain, HOURLY_ROLLUP_RETENTION_DAYS, REQUEST_LOG_RETENTION_MONTHS, ROLLUP_GRAIN_MS, rollupKeptSince } from "@/core/usage-grains";

/**
 * The window GET /v1/usage reads (docs/features/usage-analytics.md): its bucket, its ends on the
 * bucket's boundaries, and how far back it may reach. lib/api/services/usage.ts turns a refusal
 * into the API's validation error.
 */

type Bucket = "hour" | "day";

/** The window's parameters as the API took them: UTC days or instants with their offset. */
export interface ApiWindowInput {
  from: string;
  to?: string;
  bucket?: Bucket;
}

export type ApiWindow = { ok: true; window: { from: Date; to: Date; bucket: Bucket } } | { ok: false; field: "query.from" | "query.to"; message: string };

/** A day (`2026-11-01`) is its first instant, UTC. */
function instant(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/**
 * The bucket of a query that names none (the `bucket` parameter's description says the rule):
 * hours when either end is an instant inside a UTC day, so "the last hour" is not rounded out to
 * its whole day; days otherwise.
 */
function defaultBucket(query: Pick<ApiWindowInput, "from" | "to">): Bucket {
  const insideADay = (value: string | undefined) => value !== undefined && instant(value).getTime() % ROLLUP_GRAIN_MS.day !== 0;
  return insideADay(query.from) || insideADay(query.to) ? "hour" : "day";
}

/** The window on its buckets' boundaries: `from` rounded down, `to` (now by default) rounded up; within what is kept. */
export function apiUsageWindow(query: ApiWindowInput, now: Date): ApiWindow {
  const bucket = query.bucket ?? defaultBucket(query);
  const from = new Date(floorToGrain(instant(query.from).getTime(), bucket));
  const to = new Date(ceilToGrain((query.to ? instant(query.to) : now).getTime(), bucket));
  if (to <= from) return { ok: false, field: "query.to", message: "to must be after from." };
  if (from < rollupKeptSince(bucket, now)) {
    const reach =
      bucket === "hour" ? `${HOURLY_ROLLUP_RETENTION_DAYS} days, by the hour` : `${REQUEST_LOG_RETENTION_MONTHS} months (this month and the 12 before it)`;
    const hint = query.bucket === undefined ? " (the bucket when from or to is inside a day)" : "";
    return {
      ok: false,
      field: "query.from",
      message: `Usage reaches back ${reach}${bucket === "hour" ? `${hint}: ask for bucket=day, or a later from` : ""}.`,
    };
  }
  return { ok: true, window: { from, to, bucket } };
}
