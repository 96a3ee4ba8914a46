import type { CSSProperties, ReactNode } from "react";
import type { StatusClass } from "@/core/request-log";

/**
 * What every chart of the product shares (Recharts): one colour per status class, the same in
 * each chart and legend, the tooltip's frame, and round axis steps.
 */

export const CLASS_COLOURS: Record<StatusClass, string> = { "2xx": "#10b981", "3xx": "#0ea5e9", "4xx": "#f59e0b", "5xx": "#f43f5e" };

export const chartNumber = new Intl.NumberFormat("en-US");

/** A latency as people read it: "4.2 ms", "38 ms", "1.25 s". */
export const formatMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`);

export const AXIS_TICK = { fontSize: 12, fill: "var(--muted-foreground)" };

export function TooltipBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-w-40 rounded-md border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md">
      <p className="mb-1.5 font-medium">{title}</p>
      <div className="space-y-1">{children}</div>
    </div>
  );
}

export function TooltipLine({ colour, label, value }: { colour?: string; label: string; value: string | number }) {
  return (
    <p className="flex items-center justify-between gap-4">
      <span className="flex items-center gap-1.5 text-muted-foreground">
        {colour ? <span className="size-2 rounded-sm" style={{ background: colour }} aria-hidden /> : null}
        {label}
      </span>
      <span className="font-mono tabular-nums">{typeof value === "number" ? chartNumber.format(value) : value}</span>
    </p>
  );
}

/**
 * A chart's place on the page, drawn on the server: its size, its description for a screen reader
 * (the chart is one image to it) and its legend; `children` draws the chart in it.
 */
export function ChartFrame({
  label,
  legend,
  className = "h-56",
  style,
  children,
}: {
  label: string;
  legend?: { label: string; colour: string }[];
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const place = (
    <div className={`${className} w-full min-w-0`} style={style} role="img" aria-label={label}>
      {children}
    </div>
  );
  if (!legend) return place;
  return (
    <div className="space-y-3">
      {place}
      <ChartLegend items={legend} />
    </div>
  );
}

/** A chart's legend as a list, so a screen reader hears the series too. */
export function ChartLegend({ items }: { items: { label: string; colour: string }[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm" style={{ background: item.colour }} aria-hidden />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** 0 and round steps (1, 2 or 5 × 10ⁿ, whole requests) up to the busiest period: 0, 50, 100… not 0, 55, 110…. */
export function roundTicks(max: number): number[] {
  const rough = Math.max(1, max) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(
    1,
    [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!,
  );
  return Array.from({ length: Math.ceil(Math.max(1, max) / step) + 1 }, (_, i) => i * step);
}
