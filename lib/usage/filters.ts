import { z } from "zod";
import { DEFAULT_USAGE_RANGE, RANGE_PRESET_MS, type RangePreset } from "@/core/request-log";
import { utcDay, utcDayStart } from "@/core/time";
import { ceilToGrain, floorToGrain, ROLLUP_GRAIN_MS, rollupKeptSince, type RollupGrain } from "@/core/usage-grains";
import {
  auditSearchParams,
  checkRangeAndPage,
  filterSearchParams,
  rangeAndPageFields,
  requestFilterFields,
  searchParamsRecord,
  type AuditFilters,
  type SearchParamsInput,
} from "@/lib/audit-filters";

/**
 * The Usage page's URL (docs/features/usage-analytics.md): a window (a preset reaching back from now, or whole UTC days)
 * and the filters the audit log has too, so every breakdown row links to the audit log's rows of
 * the same window and filters.
 */

const usageFiltersSchema = z
  .object({
    range: rangeAndPageFields.range,
    from: rangeAndPageFields.from,
    to: rangeAndPageFields.to,
    ...requestFilterFields,
  })
  .superRefine(checkRangeAndPage);

export type UsageFilters = z.output<typeof usageFiltersSchema>;

const USAGE_PARAMS = ["range", "from", "to", "key", "endpoint", "method", "status"] as const satisfies readonly (keyof UsageFilters)[];
/** The mode (lib/view-mode.ts) goes in every link but is no filter to clear. */
const USAGE_URL_PARAMS = ["mode", ...USAGE_PARAMS] as const satisfies readonly (keyof UsageFilters)[];

export function parseUsageFilters(params: SearchParamsInput) {
  return usageFiltersSchema.safeParse(searchParamsRecord(params));
}

export function usageSearchParams(filters: UsageFilters): URLSearchParams {
  return filterSearchParams(USAGE_URL_PARAMS, filters);
}

export function hasUsageFilters(filters: UsageFilters): boolean {
  return USAGE_PARAMS.some((name) => Boolean(filters[name]));
}

/** The presets that reach back over whole UTC days (today included) rather than from this minute. */
const WHOLE_DAY_PRESETS = new Set<RangePreset>(["7d", "30d", "90d"]);

/**
 * The audit log's URL for the same window and filters, narrowed to a breakdown row's key and
 * endpoint. The window is always named (the audit log's default is all time): the last hour and
 * 24 hours as the same presets, whole days as the same days.
 */
export function auditParamsFor(
  filters: UsageFilters,
  window: { from: string; to: string },
  row: { keyId?: string | null; endpoint?: string | null } = {},
): URLSearchParams {
  const range = filters.range ?? DEFAULT_USAGE_RANGE;
  const days =
    range === "custom" || WHOLE_DAY_PRESETS.has(range)
      ? { range: "custom" as const, from: window.from.slice(0, 10), to: utcDay(new Date(Date.parse(window.to) - 1)) }
      : { range };
  const audit: AuditFilters = {
    ...days,
    mode: filters.mode,
    key: row.keyId ?? filters.key,
    endpoint: row.endpoint ?? filters.endpoint,
    method: filters.method,
    status: filters.status,
  };
  return auditSearchParams(audit);
}

/** The window a URL selects and the chart's grain for it. */
export interface UsageWindow {
  /** Included, on a minute's boundary. */
  from: Date;
  /** Excluded: the end of the current minute when the window reaches now, so requests of a moment ago count. */
  to: Date;
  /** Whether the window reaches now: nothing is logged after it, so reading to the end of the day counts the same rows. */
  open: boolean;
  /** The chart's period: minutes for an hour, hours up to a week, days beyond. */
  bucket: RollupGrain;
}

function bucketFor(from: number, to: number, now: Date): RollupGrain {
  const span = to - from;
  if (span <= RANGE_PRESET_MS["1h"] && from >= rollupKeptSince("minute", now).getTime()) return "minute";
  if (span <= RANGE_PRESET_MS["7d"] && from >= rollupKeptSince("hour", now).getTime()) return "hour";
  return "day";
}

/**
 * The window of `filters` at `now`, or why it cannot be shown. The last hour and 24 hours reach
 * back from the end of the current minute (minute rollups cover both ends); 7, 30 and 90 days
 * and custom ranges are whole UTC days, today included, which the daily and hourly rollups cover
 * exactly however far back they start. A custom range reaches back at most as far as the daily
 * rollups are kept (the request log's 13 months).
 */
export function usageWindow(filters: UsageFilters, now: Date): { ok: true; window: UsageWindow } | { ok: false; message: string } {
  const end = ceilToGrain(now.getTime() + 1, "minute");
  const today = floorToGrain(now.getTime(), "day");
  const oldest = rollupKeptSince("day", now);
  const range = filters.range ?? DEFAULT_USAGE_RANGE;
  let from: number;
  let to = end;
  if (range === "custom") {
    from = filters.from ? utcDayStart(filters.from).getTime() : oldest.getTime();
    if (filters.to) to = Math.min(end, utcDayStart(filters.to).getTime() + ROLLUP_GRAIN_MS.day);
    if (from < oldest.getTime()) return { ok: false, message: `Usage goes back to ${utcDay(oldest)} (13 months): choose a from date on or after it.` };
    if (from >= to) return { ok: false, message: "This range is in the future: choose days up to today." };
  } else {
    const span = RANGE_PRESET_MS[range];
    from = WHOLE_DAY_PRESETS.has(range) ? today + ROLLUP_GRAIN_MS.day - span : end - span;
  }
  return { ok: true, window: { from: new Date(from), to: new Date(to), bucket: bucketFor(from, to, now), open: to === end } };
}

/** The chart's window: whole periods of its grain, the first and the current one included. */
export function chartWindow(window: UsageWindow): { from: Date; to: Date } {
  return { from: new Date(floorToGrain(window.from.getTime(), window.bucket)), to: new Date(ceilToGrain(window.to.getTime(), window.bucket)) };
}
