"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { DailyUsageDto, StatusCountDto } from "@/db/queries/key-usage";
import { STATUS_CLASSES, statusClassOf } from "@/core/request-log";
import { utcDayStart } from "@/core/time";
import { AXIS_TICK, ChartLegend, CLASS_COLOURS, chartNumber, roundTicks, TooltipBox, TooltipLine } from "@/components/chart-parts";

const shortDay = (day: string) => utcDayStart(day).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const longDay = (day: string) => utcDayStart(day).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

function DailyTooltip({ active, payload }: TooltipContentProps) {
  const day = payload?.[0]?.payload as DailyUsageDto | undefined;
  if (!active || !day) return null;
  return (
    <TooltipBox title={longDay(day.day)}>
      {STATUS_CLASSES.filter((c) => day[c] > 0).map((c) => (
        <TooltipLine key={c} colour={CLASS_COLOURS[c]} label={c} value={day[c]} />
      ))}
      <TooltipLine label="Total" value={day.total} />
    </TooltipBox>
  );
}

/** Requests per UTC day over the whole window, quiet days as gaps, stacked by status class. */
export function DailyRequestsChart({ daily }: { daily: DailyUsageDto[] }) {
  const busiest = daily.reduce((best, day) => (day.total > best.total ? day : best), daily[0]!);
  const ticks = roundTicks(busiest.total);
  return (
    <div className="space-y-3">
      <div
        className="h-64 w-full"
        role="img"
        aria-label={`Requests per day from ${longDay(daily[0]!.day)} to ${longDay(daily[daily.length - 1]!.day)}; busiest day ${longDay(busiest.day)} with ${chartNumber.format(busiest.total)} requests.`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={daily} margin={{ top: 8, right: 4, left: 0, bottom: 0 }} barCategoryGap="18%">
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis dataKey="day" tickFormatter={shortDay} tickLine={false} axisLine={false} minTickGap={24} tick={AXIS_TICK} />
            <YAxis ticks={ticks} domain={[0, ticks[ticks.length - 1]!]} tickLine={false} axisLine={false} width={44} tick={AXIS_TICK} tickFormatter={(v: number) => chartNumber.format(v)} />
            <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={DailyTooltip} />
            {STATUS_CLASSES.map((c) => (
              <Bar key={c} dataKey={c} name={c} stackId="status" fill={CLASS_COLOURS[c]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ChartLegend items={STATUS_CLASSES.map((c) => ({ label: c, colour: CLASS_COLOURS[c] }))} />
    </div>
  );
}

function StatusTooltip({ active, payload }: TooltipContentProps) {
  const row = payload?.[0]?.payload as StatusCountDto | undefined;
  if (!active || !row) return null;
  return (
    <TooltipBox title={`Status ${row.status}`}>
      <TooltipLine label="Requests" value={row.count} />
    </TooltipBox>
  );
}

const colourOf = (status: number) => CLASS_COLOURS[statusClassOf(status) ?? "3xx"];

/** One bar per status code, in order of code, coloured by class; the numbers sit in the table beside it. */
export function StatusCodesChart({ statuses }: { statuses: StatusCountDto[] }) {
  return (
    <div className="w-full min-w-0" style={{ height: statuses.length * 30 + 16 }} role="img" aria-label="Requests per status code; the numbers are in the table that follows.">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={statuses} layout="vertical" margin={{ top: 8, right: 8, left: 0, bottom: 8 }} barCategoryGap={6}>
          <XAxis type="number" hide allowDecimals={false} />
          <YAxis type="category" dataKey="status" width={40} tickLine={false} axisLine={false} tick={{ fontSize: 12, fill: "var(--muted-foreground)", fontFamily: "var(--font-mono)" }} />
          <Tooltip cursor={{ fill: "var(--muted)", opacity: 0.6 }} content={StatusTooltip} />
          <Bar dataKey="count" radius={[0, 3, 3, 0]} minPointSize={2} isAnimationActive={false}>
            {statuses.map((row) => (
              <Cell key={row.status} fill={colourOf(row.status)} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
