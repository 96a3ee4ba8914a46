"use client";

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { RollupGrain } from "@/core/usage-grains";
import { AXIS_TICK, ChartLegend, CLASS_COLOURS, chartNumber, formatMs, roundTicks, TooltipBox, TooltipLine } from "@/components/chart-parts";

/**
 * The Usage page's charts over time (docs/features/usage-analytics.md) and the key page's latency panel: requests stacked
 * by status class, the error rate, and latency p50/p95/p99, one point per minute, hour or day.
 */

export interface UsagePoint {
  bucketStart: string;
  requests: number;
  /** Answered 2xx or 3xx. */
  success: number;
  errors4xx: number;
  errors5xx: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

const STACK = [
  { key: "success", label: "2xx and 3xx", colour: CLASS_COLOURS["2xx"] },
  { key: "errors4xx", label: "4xx", colour: CLASS_COLOURS["4xx"] },
  { key: "errors5xx", label: "5xx", colour: CLASS_COLOURS["5xx"] },
] as const;

export const LATENCY_SERIES = [
  { key: "p50Ms", label: "p50", colour: "#6366f1" },
  { key: "p95Ms", label: "p95", colour: "#f59e0b" },
  { key: "p99Ms", label: "p99", colour: "#f43f5e" },
] as const;

const RATES = [
  { key: "rate4xx", label: "4xx rate", colour: CLASS_COLOURS["4xx"] },
  { key: "rate5xx", label: "5xx rate", colour: CLASS_COLOURS["5xx"] },
] as const;

const at = (iso: string, options: Intl.DateTimeFormatOptions) => new Date(iso).toLocaleString("en-US", { timeZone: "UTC", ...options });

/** The axis label of a period: its time of day for minutes, its day (and hour when it fits) beyond. */
function tickLabel(grain: RollupGrain, span: number) {
  return (iso: string) => {
    if (grain === "minute" || (grain === "hour" && span <= 48)) return at(iso, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    return at(iso, { month: "short", day: "numeric" });
  };
}

/** A period in full, for the tooltip: "Thu, Nov 26, 14:05–14:06 UTC", "Thu, Nov 26". */
export function periodLabel(grain: RollupGrain, iso: string): string {
  if (grain === "day") return at(iso, { weekday: "short", month: "short", day: "numeric", year: "numeric" });
  const minutes = grain === "minute" ? 1 : 60;
  const end = new Date(Date.parse(iso) + minutes * 60_000).toISOString();
  const time = (value: string) => at(value, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${at(iso, { weekday: "short", month: "short", day: "numeric" })}, ${time(iso)}–${time(end)} UTC`;
}

// An axis has little room: "450ms", "1.5s".
const axisMs = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}s` : `${Math.round(ms)}ms`);
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

function Frame({ label, children, legend }: { label: string; children: React.ReactElement; legend: { label: string; colour: string }[] }) {
  return (
    <div className="space-y-3">
      <div className="h-56 w-full min-w-0" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      <ChartLegend items={legend.map((item) => ({ label: item.label, colour: item.colour }))} />
    </div>
  );
}

/** Ticks on round periods: each 10 minutes, each 3 hours over a day, each midnight over days of hours. */
function periodTicks(grain: RollupGrain, points: UsagePoint[]): string[] | undefined {
  const on = (test: (at: Date) => boolean) => points.map((point) => point.bucketStart).filter((iso) => test(new Date(iso)));
  if (grain === "minute") return on((at) => at.getUTCMinutes() % 10 === 0);
  if (grain === "hour") return points.length <= 48 ? on((at) => at.getUTCHours() % 3 === 0) : on((at) => at.getUTCHours() === 0);
  return undefined;
}

const xAxis = (grain: RollupGrain, points: UsagePoint[]) => (
  <XAxis dataKey="bucketStart" ticks={periodTicks(grain, points)} tickFormatter={tickLabel(grain, points.length)} tickLine={false} axisLine={false} minTickGap={28} tick={AXIS_TICK} />
);

/** Requests per period, stacked: successes, then client and server errors. */
export function RequestsOverTimeChart({ points, grain }: { points: UsagePoint[]; grain: RollupGrain }) {
  const busiest = points.reduce((best, point) => (point.requests > best.requests ? point : best), points[0]!);
  const ticks = roundTicks(busiest.requests);
  const content = ({ active, payload }: TooltipContentProps) => {
    const point = payload?.[0]?.payload as UsagePoint | undefined;
    if (!active || !point) return null;
    return (
      <TooltipBox title={periodLabel(grain, point.bucketStart)}>
        {STACK.map((series) => (
          <TooltipLine key={series.key} colour={series.colour} label={series.label} value={point[series.key]} />
        ))}
        <TooltipLine label="Total" value={point.requests} />
      </TooltipBox>
    );
  };
  return (
    <Frame label={`Requests per ${grain}, stacked by status class; busiest ${periodLabel(grain, busiest.bucketStart)} with ${chartNumber.format(busiest.requests)} requests.`} legend={[...STACK]}>
      <BarChart data={points} margin={{ top: 8, right: 4, left: 0, bottom: 0 }} barCategoryGap="12%">
        <CartesianGrid vertical={false} stroke="var(--border)" />
        {xAxis(grain, points)}
        <YAxis ticks={ticks} domain={[0, ticks[ticks.length - 1]!]} tickLine={false} axisLine={false} width={48} tick={AXIS_TICK} tickFormatter={(v: number) => chartNumber.format(v)} />
        <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={content} />
        {STACK.map((series) => (
          <Bar key={series.key} dataKey={series.key} name={series.label} stackId="status" fill={series.colour} isAnimationActive={false} />
        ))}
      </BarChart>
    </Frame>
  );
}

/** The share of each period's requests answered 4xx and 5xx; quiet periods have no rate. */
export function ErrorRateChart({ points, grain }: { points: UsagePoint[]; grain: RollupGrain }) {
  const data = points.map((point) => ({
    bucketStart: point.bucketStart,
    requests: point.requests,
    rate4xx: point.requests > 0 ? point.errors4xx / point.requests : null,
    rate5xx: point.requests > 0 ? point.errors5xx / point.requests : null,
  }));
  const content = ({ active, payload }: TooltipContentProps) => {
    const point = payload?.[0]?.payload as (typeof data)[number] | undefined;
    if (!active || !point) return null;
    return (
      <TooltipBox title={periodLabel(grain, point.bucketStart)}>
        {RATES.map((series) => (
          <TooltipLine key={series.key} colour={series.colour} label={series.label} value={point[series.key] === null ? "—" : percent.format(point[series.key]!)} />
        ))}
        <TooltipLine label="Requests" value={point.requests} />
      </TooltipBox>
    );
  };
  return (
    <Frame label={`Share of requests answered 4xx and 5xx per ${grain}.`} legend={[...RATES]}>
      <LineChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        {xAxis(grain, points)}
        <YAxis domain={[0, (max: number) => Math.min(1, Math.max(0.05, Math.ceil(max * 20) / 20))]} tickLine={false} axisLine={false} width={48} tick={AXIS_TICK} tickFormatter={(v: number) => percent.format(v)} />
        <Tooltip content={content} />
        {RATES.map((series) => (
          <Line key={series.key} dataKey={series.key} name={series.label} stroke={series.colour} strokeWidth={2} dot={false} connectNulls={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </Frame>
  );
}

/** Latency percentiles per period, from the merged histograms of its rollup rows; a period without requests is a gap, not a line drawn across it. */
export function LatencyChart({ points, grain }: { points: UsagePoint[]; grain: RollupGrain }) {
  const content = ({ active, payload }: TooltipContentProps) => {
    const point = payload?.[0]?.payload as UsagePoint | undefined;
    if (!active || !point) return null;
    return (
      <TooltipBox title={periodLabel(grain, point.bucketStart)}>
        {LATENCY_SERIES.map((series) => (
          <TooltipLine key={series.key} colour={series.colour} label={series.label} value={point[series.key] === null ? "—" : formatMs(point[series.key]!)} />
        ))}
      </TooltipBox>
    );
  };
  return (
    <Frame label={`Latency p50, p95 and p99 per ${grain}, in milliseconds.`} legend={[...LATENCY_SERIES]}>
      <LineChart data={points} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        {xAxis(grain, points)}
        <YAxis tickLine={false} axisLine={false} width={52} tick={AXIS_TICK} tickFormatter={axisMs} />
        <Tooltip content={content} />
        {LATENCY_SERIES.map((series) => (
          <Line key={series.key} dataKey={series.key} name={series.label} stroke={series.colour} strokeWidth={2} dot={false} connectNulls={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </Frame>
  );
}
