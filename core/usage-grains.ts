/**
 * The periods request traffic is rolled up by (db/rollups/statements.ts) and how long each grain's rows are
 * kept. Daily rows are kept as long as the raw log; hourly and minute rows serve the shorter
 * windows only, so they are dropped sooner.
 */
export const ROLLUP_GRAINS = ["minute", "hour", "day"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

/** Each grain's period in milliseconds: UTC minutes, hours and days are all whole multiples of it from the epoch. */
export const ROLLUP_GRAIN_MS: Record<RollupGrain, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The start of the grain's period holding `at` (epoch ms), and the first period boundary at or after it. */
export const floorToGrain = (at: number, grain: RollupGrain) => Math.floor(at / ROLLUP_GRAIN_MS[grain]) * ROLLUP_GRAIN_MS[grain];
export const ceilToGrain = (at: number, grain: RollupGrain) => Math.ceil(at / ROLLUP_GRAIN_MS[grain]) * ROLLUP_GRAIN_MS[grain];

/**
 * The requests the rollup rows of a grain's periods from `from` to `to` hold, as the statements
 * select them (periodWithin, db/rollups/tables.ts): minutes and hours that start within the span,
 * the days of its first to its last date excluded. Off the periods' boundaries that is not the
 * span itself: requests not folded yet, and an analytics store's raw rows, are read by it.
 */
export function requestsOfPeriods(grain: RollupGrain, from: Date, to: Date): { from: Date; to: Date } {
  const bound = grain === "day" ? floorToGrain : ceilToGrain;
  return { from: new Date(bound(from.getTime(), grain)), to: new Date(bound(to.getTime(), grain)) };
}

/** The request log keeps the current UTC month and the 12 before it (db/partitions.ts drops older months whole). */
export const REQUEST_LOG_RETENTION_MONTHS = 13;
export const MINUTE_ROLLUP_RETENTION_HOURS = 48;
export const HOURLY_ROLLUP_RETENTION_DAYS = 35;

/** The oldest instant whose rows of this grain (for days, the request log's too) are still kept at `now`. */
export function rollupKeptSince(grain: RollupGrain, now: Date): Date {
  if (grain === "day") return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (REQUEST_LOG_RETENTION_MONTHS - 1), 1));
  const hours = grain === "minute" ? MINUTE_ROLLUP_RETENTION_HOURS : HOURLY_ROLLUP_RETENTION_DAYS * 24;
  return new Date(now.getTime() - hours * ROLLUP_GRAIN_MS.hour);
}
