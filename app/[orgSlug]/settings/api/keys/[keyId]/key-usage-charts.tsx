import type { DailyUsageDto, StatusCountDto } from "@/db/queries/key-usage";
import { STATUS_CLASSES } from "@/core/request-log";
import { utcDayStart } from "@/core/time";
import { ChartFrame, CLASS_COLOURS, chartNumber } from "@/components/chart-parts";
import { longDay, type DailyCounts } from "@/components/usage-chart-series";
import { LazyDailyRequestsBars, LazyStatusCodesBars } from "@/components/usage-charts-lazy";

/**
 * The key page's charts: their frames and descriptions drawn here on the server, each chart drawn
 * in the browser once it comes into view, from only the numbers it plots
 * (docs/decisions/0064-charts-load-when-seen.md).
 */

/** Requests per UTC day over the whole window, quiet days as gaps, stacked by status class. */
export function DailyRequestsChart({ daily }: { daily: DailyUsageDto[] }) {
  const busiest = daily.reduce((best, day) => (day.total > best.total ? day : best), daily[0]!);
  const series = {
    from: utcDayStart(daily[0]!.day).getTime(),
    grain: "day" as const,
    rows: daily.map((day) => STATUS_CLASSES.map((c) => day[c]) as DailyCounts),
  };
  return (
    <ChartFrame
      className="h-64"
      label={`Requests per day from ${longDay(daily[0]!.day)} to ${longDay(daily[daily.length - 1]!.day)}; busiest day ${longDay(busiest.day)} with ${chartNumber.format(busiest.total)} requests.`}
      legend={STATUS_CLASSES.map((c) => ({ label: c, colour: CLASS_COLOURS[c] }))}
    >
      <LazyDailyRequestsBars series={series} />
    </ChartFrame>
  );
}

/** One bar per status code, in order of code, coloured by class; the numbers sit in the table beside it. */
export function StatusCodesChart({ statuses }: { statuses: StatusCountDto[] }) {
  return (
    <ChartFrame className="" style={{ height: statuses.length * 30 + 16 }} label="Requests per status code; the numbers are in the table that follows.">
      <LazyStatusCodesBars statuses={statuses.map((row) => [row.status, row.count])} />
    </ChartFrame>
  );
}
