/**
 * The periods request traffic is rolled up by (db/rollups.ts) and how long each grain's rows are
 * kept. Daily rows are kept as long as the raw log (REQUEST_LOG_RETENTION_MONTHS, 13 months);
 * hourly and minute rows serve the shorter windows only, so they are dropped sooner.
 */
export const ROLLUP_GRAINS = ["minute", "hour", "day"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

export const MINUTE_ROLLUP_RETENTION_HOURS = 48;
export const HOURLY_ROLLUP_RETENTION_DAYS = 35;

/** The oldest instant whose minute or hourly rollups are still kept at `now`. */
export function rollupKeptSince(grain: Exclude<RollupGrain, "day">, now: Date): Date {
  const hours = grain === "minute" ? MINUTE_ROLLUP_RETENTION_HOURS : HOURLY_ROLLUP_RETENTION_DAYS * 24;
  return new Date(now.getTime() - hours * 3600_000);
}
