"use client";

import type { ReactElement, ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { STATUS_CLASSES, statusClassOf } from "@/core/request-log";
import { AXIS_TICK, CLASS_COLOURS, chartNumber, formatMs, roundTicks, TooltipBox, TooltipLine } from "@/components/chart-parts";
import {
  LATENCY_SERIES,
  longDay,
  periodLabel,
  periodStarts,
  periodTicks,
  RATES,
  shortDay,
  STACK,
  tickLabel,
  type ClassCounts,
  type DailyCounts,
  type Percentiles,
  type PeriodSeries,
  type StatusCount,
} from "@/components/usage-chart-series";

/**
 * The charts as Recharts draws them, one module fetched when the first comes into view
 * (components/usage-charts.tsx and the key page's key-usage-charts.tsx hold their frames):
 * requests stacked by status class, the error rate, and latency p50/p95/p99, one point per
 * minute, hour or day; a key's requests per day and per status code.
 */

// An axis has little room: "450ms", "1.5s".
const axisMs = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}s` : `${Math.round(ms)}ms`);
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

const xAxis = (grain: PeriodSeries<unknown>["grain"], starts: string[]) => (
  <XAxis
    dataKey="bucketStart"
    ticks={periodTicks(grain, starts)}
    tickFormatter={tickLabel(grain, starts.length)}
    tickLine={false}
    axisLine={false}
    minTickGap={28}
    tick={AXIS_TICK}
  />
);

/** Requests per period, stacked: successes, then client and server errors. */
export function RequestsOverTimeBars({ series }: { series: PeriodSeries<ClassCounts> }) {
  const starts = periodStarts(series);
  const data = series.rows.map(([success, errors4xx, errors5xx], i) => ({
    bucketStart: starts[i]!,
    counts: [success, errors4xx, errors5xx],
    c0: success,
    c1: errors4xx,
    c2: errors5xx,
    requests: success + errors4xx + errors5xx,
  }));
  const ticks = roundTicks(Math.max(0, ...data.map((point) => point.requests)));
  const content = ({ active, payload }: TooltipContentProps) => {
    const point = payload?.[0]?.payload as (typeof data)[number] | undefined;
    if (!active || !point) return null;
    return (
      <TooltipBox title={periodLabel(series.grain, point.bucketStart)}>
        {STACK.map((line, i) => (
          <TooltipLine key={line.label} colour={line.colour} label={line.label} value={point.counts[i]!} />
        ))}
        <TooltipLine label="Total" value={point.requests} />
      </TooltipBox>
    );
  };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 4, left: 0, bottom: 0 }} barCategoryGap="12%">
        <CartesianGrid vertical={false} stroke="var(--border)" />
        {xAxis(series.grain, starts)}
        <YAxis
          ticks={ticks}
          domain={[0, ticks[ticks.length - 1]!]}
          tickLine={false}
          axisLine={false}
          width={48}
          tick={AXIS_TICK}
          tickFormatter={(v: number) => chartNumber.format(v)}
        />
        <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={content} />
        {STACK.map((line, i) => (
          <Bar key={line.label} dataKey={`c${i}`} name={line.label} stackId="status" fill={line.colour} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Lines over the periods, one per series of `lines`, read from `l0`, `l1`… of each point; a null is a gap. */
function PeriodLines<P extends { bucketStart: string }>({
  series,
  data,
  lines,
  yAxis,
  tooltip,
}: {
  series: PeriodSeries<unknown>;
  data: P[];
  lines: readonly { label: string; colour: string }[];
  yAxis: ReactElement;
  tooltip: (point: P) => ReactNode;
}) {
  const starts = data.map((point) => point.bucketStart);
  const content = ({ active, payload }: TooltipContentProps) => {
    const point = payload?.[0]?.payload as P | undefined;
    if (!active || !point) return null;
    return <TooltipBox title={periodLabel(series.grain, point.bucketStart)}>{tooltip(point)}</TooltipBox>;
  };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        {xAxis(series.grain, starts)}
        {yAxis}
        <Tooltip content={content} />
        {lines.map((line, i) => (
          <Line
            key={line.label}
            dataKey={`l${i}`}
            name={line.label}
            stroke={line.colour}
            strokeWidth={2}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

const orDash = (value: number | null, format: (value: number) => string) => (value === null ? "—" : format(value));

/** The share of each period's requests answered 4xx and 5xx; quiet periods have no rate. */
export function ErrorRateLines({ series }: { series: PeriodSeries<ClassCounts> }) {
  const starts = periodStarts(series);
  const data = series.rows.map(([success, errors4xx, errors5xx], i) => {
    const requests = success + errors4xx + errors5xx;
    const rates = requests > 0 ? [errors4xx / requests, errors5xx / requests] : [null, null];
    return { bucketStart: starts[i]!, requests, rates, l0: rates[0], l1: rates[1] };
  });
  return (
    <PeriodLines
      series={series}
      data={data}
      lines={RATES}
      yAxis={
        <YAxis
          domain={[0, (max: number) => Math.min(1, Math.max(0.05, Math.ceil(max * 20) / 20))]}
          tickLine={false}
          axisLine={false}
          width={48}
          tick={AXIS_TICK}
          tickFormatter={(v: number) => percent.format(v)}
        />
      }
      tooltip={(point) => (
        <>
          {RATES.map((line, i) => (
            <TooltipLine key={line.label} colour={line.colour} label={line.label} value={orDash(point.rates[i]!, percent.format)} />
          ))}
          <TooltipLine label="Requests" value={point.requests} />
        </>
      )}
    />
  );
}

/** Latency percentiles per period; a period without requests is a gap, not a line drawn across it. */
export function LatencyLines({ series }: { series: PeriodSeries<Percentiles> }) {
  const starts = periodStarts(series);
  const data = series.rows.map((ms, i) => ({ bucketStart: starts[i]!, ms, l0: ms[0], l1: ms[1], l2: ms[2] }));
  return (
    <PeriodLines
      series={series}
      data={data}
      lines={LATENCY_SERIES}
      yAxis={<YAxis tickLine={false} axisLine={false} width={52} tick={AXIS_TICK} tickFormatter={axisMs} />}
      tooltip={(point) =>
        LATENCY_SERIES.map((line, i) => <TooltipLine key={line.label} colour={line.colour} label={line.label} value={orDash(point.ms[i]!, formatMs)} />)
      }
    />
  );
}

/** Requests per UTC day over the whole window, quiet days as gaps, stacked by status class. */
export function DailyRequestsBars({ series }: { series: PeriodSeries<DailyCounts> }) {
  const days = periodStarts(series);
  const data = series.rows.map((counts, i) => ({
    day: days[i]!,
    counts,
    total: counts.reduce((sum, count) => sum + count, 0),
    ...Object.fromEntries(STATUS_CLASSES.map((c, j) => [c, counts[j]])),
  }));
  const ticks = roundTicks(Math.max(0, ...data.map((day) => day.total)));
  const content = ({ active, payload }: TooltipContentProps) => {
    const day = payload?.[0]?.payload as (typeof data)[number] | undefined;
    if (!active || !day) return null;
    return (
      <TooltipBox title={longDay(day.day)}>
        {STATUS_CLASSES.map((c, j) => (day.counts[j]! > 0 ? <TooltipLine key={c} colour={CLASS_COLOURS[c]} label={c} value={day.counts[j]!} /> : null))}
        <TooltipLine label="Total" value={day.total} />
      </TooltipBox>
    );
  };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 4, left: 0, bottom: 0 }} barCategoryGap="18%">
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis dataKey="day" tickFormatter={shortDay} tickLine={false} axisLine={false} minTickGap={24} tick={AXIS_TICK} />
        <YAxis
          ticks={ticks}
          domain={[0, ticks[ticks.length - 1]!]}
          tickLine={false}
          axisLine={false}
          width={44}
          tick={AXIS_TICK}
          tickFormatter={(v: number) => chartNumber.format(v)}
        />
        <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={content} />
        {STATUS_CLASSES.map((c) => (
          <Bar key={c} dataKey={c} name={c} stackId="status" fill={CLASS_COLOURS[c]} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

function StatusTooltip({ active, payload }: TooltipContentProps) {
  const row = payload?.[0]?.payload as { status: number; count: number } | undefined;
  if (!active || !row) return null;
  return (
    <TooltipBox title={`Status ${row.status}`}>
      <TooltipLine label="Requests" value={row.count} />
    </TooltipBox>
  );
}

const colourOf = (status: number) => CLASS_COLOURS[statusClassOf(status) ?? "3xx"];

/** One bar per status code, in order of code, coloured by class; the numbers sit in the table beside it. */
export function StatusCodesBars({ statuses }: { statuses: StatusCount[] }) {
  const data = statuses.map(([status, count]) => ({ status, count }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 8, left: 0, bottom: 8 }} barCategoryGap={6}>
        <XAxis type="number" hide allowDecimals={false} />
        <YAxis
          type="category"
          dataKey="status"
          width={40}
          tickLine={false}
          axisLine={false}
          tick={{ fontSize: 12, fill: "var(--muted-foreground)", fontFamily: "var(--font-mono)" }}
        />
        <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={StatusTooltip} />
        <Bar dataKey="count" radius={[0, 3, 3, 0]} minPointSize={2} isAnimationActive={false}>
          {data.map((row) => (
            <Cell key={row.status} fill={colourOf(row.status)} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
