import type { RollupGrain } from "@/core/usage-grains";
import { ChartFrame, chartNumber } from "@/components/chart-parts";
import { LATENCY_SERIES, periodLabel, RATES, STACK, type ClassCounts, type Percentiles, type PeriodSeries } from "@/components/usage-chart-series";
import { LazyErrorRateLines, LazyLatencyLines, LazyRequestsOverTimeBars } from "@/components/usage-charts-lazy";

/**
 * The Usage page's charts over time (docs/features/usage-analytics.md) and the key page's latency
 * panel: requests stacked by status class, the error rate, and latency p50/p95/p99, one point per
 * minute, hour or day. Each chart's frame, description and legend are drawn here on the server;
 * the chart itself is drawn in the browser once it comes into view, from only the numbers it
 * plots (docs/decisions/0064-charts-load-when-seen.md).
 */

export interface UsagePoint {
  bucketStart: string;
  /** Answered 2xx or 3xx. */
  success: number;
  errors4xx: number;
  errors5xx: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

type ChartProps = { points: UsagePoint[]; grain: RollupGrain };

const seriesOf = <Row,>(points: UsagePoint[], grain: RollupGrain, row: (point: UsagePoint) => Row): PeriodSeries<Row> => ({
  from: points.length > 0 ? Date.parse(points[0]!.bucketStart) : 0,
  grain,
  rows: points.map(row),
});

const classCounts = (point: UsagePoint): ClassCounts => [point.success, point.errors4xx, point.errors5xx];
const percentiles = (point: UsagePoint): Percentiles => [point.p50Ms, point.p95Ms, point.p99Ms];
const requestsOf = (point: UsagePoint) => point.success + point.errors4xx + point.errors5xx;

/** Requests per period, stacked: successes, then client and server errors. */
export function RequestsOverTimeChart({ points, grain }: ChartProps) {
  const busiest = points.reduce((best, point) => (requestsOf(point) > requestsOf(best) ? point : best), points[0]!);
  return (
    <ChartFrame
      label={`Requests per ${grain}, stacked by status class; busiest ${periodLabel(grain, busiest.bucketStart)} with ${chartNumber.format(requestsOf(busiest))} requests.`}
      legend={[...STACK]}
    >
      <LazyRequestsOverTimeBars series={seriesOf(points, grain, classCounts)} />
    </ChartFrame>
  );
}

/** The share of each period's requests answered 4xx and 5xx; quiet periods have no rate. */
export function ErrorRateChart({ points, grain }: ChartProps) {
  return (
    <ChartFrame label={`Share of requests answered 4xx and 5xx per ${grain}.`} legend={[...RATES]}>
      <LazyErrorRateLines series={seriesOf(points, grain, classCounts)} />
    </ChartFrame>
  );
}

/** Latency percentiles per period, from the merged histograms of its rollup rows. */
export function LatencyChart({ points, grain }: ChartProps) {
  return (
    <ChartFrame label={`Latency p50, p95 and p99 per ${grain}, in milliseconds.`} legend={[...LATENCY_SERIES]}>
      <LazyLatencyLines series={seriesOf(points, grain, percentiles)} />
    </ChartFrame>
  );
}
