import { utcDayStart } from "@/core/time";
import { ROLLUP_GRAIN_MS, type RollupGrain } from "@/core/usage-grains";
import { CLASS_COLOURS } from "@/components/chart-parts";

/**
 * What the charts over time draw (docs/features/usage-analytics.md), in the form they travel to
 * the browser: one small row of numbers per period, the periods following each other from `from`
 * (docs/decisions/0064-charts-load-when-seen.md). Shared by the server's frame of each chart and
 * the charts drawn in the browser.
 */
export interface PeriodSeries<Row> {
  /** The first period's start, epoch milliseconds; period i starts i grains later. */
  from: number;
  grain: RollupGrain;
  rows: Row[];
}

/** A period's requests by how they were answered: 2xx or 3xx, 4xx, 5xx. */
export type ClassCounts = [success: number, errors4xx: number, errors5xx: number];
/** A period's latency p50, p95 and p99 in milliseconds; null without requests. */
export type Percentiles = [p50Ms: number | null, p95Ms: number | null, p99Ms: number | null];

/** A day's requests per status class (2xx, 3xx, 4xx, 5xx), on a key's page. */
export type DailyCounts = [number, number, number, number];
/** A status code and how many requests were answered with it. */
export type StatusCount = [status: number, count: number];

export const STACK = [
  { label: "2xx and 3xx", colour: CLASS_COLOURS["2xx"] },
  { label: "4xx", colour: CLASS_COLOURS["4xx"] },
  { label: "5xx", colour: CLASS_COLOURS["5xx"] },
] as const;

export const RATES = [
  { label: "4xx rate", colour: CLASS_COLOURS["4xx"] },
  { label: "5xx rate", colour: CLASS_COLOURS["5xx"] },
] as const;

export const LATENCY_SERIES = [
  { label: "p50", colour: "#6366f1" },
  { label: "p95", colour: "#f59e0b" },
  { label: "p99", colour: "#f43f5e" },
] as const;

/** The start of each period of a series, as ISO text (the charts' category axis). */
export const periodStarts = (series: PeriodSeries<unknown>) =>
  series.rows.map((_, i) => new Date(series.from + i * ROLLUP_GRAIN_MS[series.grain]).toISOString());

const at = (iso: string, options: Intl.DateTimeFormatOptions) => new Date(iso).toLocaleString("en-US", { timeZone: "UTC", ...options });

/** A period in full, for the tooltip and a chart's description: "Thu, Nov 26, 14:05–14:06 UTC", "Thu, Nov 26". */
export function periodLabel(grain: RollupGrain, iso: string): string {
  if (grain === "day") return at(iso, { weekday: "short", month: "short", day: "numeric", year: "numeric" });
  const end = new Date(Date.parse(iso) + ROLLUP_GRAIN_MS[grain]).toISOString();
  const time = (value: string) => at(value, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${at(iso, { weekday: "short", month: "short", day: "numeric" })}, ${time(iso)}–${time(end)} UTC`;
}

/** The axis label of a period: its time of day for minutes, its day (and hour when it fits) beyond. */
export function tickLabel(grain: RollupGrain, span: number) {
  return (iso: string) => {
    if (grain === "minute" || (grain === "hour" && span <= 48)) return at(iso, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    return at(iso, { month: "short", day: "numeric" });
  };
}

/** Ticks on round periods: each 10 minutes, each 3 hours over a day, each midnight over days of hours. */
export function periodTicks(grain: RollupGrain, starts: string[]): string[] | undefined {
  const on = (test: (at: Date) => boolean) => starts.filter((iso) => test(new Date(iso)));
  if (grain === "minute") return on((at) => at.getUTCMinutes() % 10 === 0);
  if (grain === "hour") return starts.length <= 48 ? on((at) => at.getUTCHours() % 3 === 0) : on((at) => at.getUTCHours() === 0);
  return undefined;
}

/** A UTC day on a key's page, from its date or its start: "Nov 26" on the axis, "Thu, Nov 26" in full. */
export const shortDay = (day: string) => utcDayStart(day.slice(0, 10)).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
export const longDay = (day: string) =>
  utcDayStart(day.slice(0, 10)).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
