"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { STATUS_CLASSES, statusClassOf } from "@/core/request-log";
import { AXIS_TICK, CLASS_COLOURS, chartNumber, roundTicks, TooltipBox, TooltipLine } from "@/components/chart-parts";
import { periodStarts, type PeriodSeries } from "@/components/usage-chart-series";
import { longDay, shortDay, type DailyCounts, type StatusCount } from "./key-usage-chart-data";

/** The key page's charts as Recharts draws them, fetched when the first comes into view (key-usage-charts.tsx holds their frames). */

/** Requests per UTC day over the whole window, quiet days as gaps, stacked by status class. */
export function DailyRequestsBars({ series }: { series: PeriodSeries<DailyCounts> }) {
  const days = periodStarts(series);
  const data = series.rows.map((counts, i) => ({ day: days[i]!, counts, total: counts.reduce((sum, count) => sum + count, 0), ...Object.fromEntries(STATUS_CLASSES.map((c, j) => [c, counts[j]])) }));
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
        <YAxis ticks={ticks} domain={[0, ticks[ticks.length - 1]!]} tickLine={false} axisLine={false} width={44} tick={AXIS_TICK} tickFormatter={(v: number) => chartNumber.format(v)} />
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
        <YAxis type="category" dataKey="status" width={40} tickLine={false} axisLine={false} tick={{ fontSize: 12, fill: "var(--muted-foreground)", fontFamily: "var(--font-mono)" }} />
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
