import type * as React from "react";
import { cn } from "@/lib/utils";

/** "2026-11-23 14:05:09 UTC": identical on the server and in every browser. */
function formatExactUtc(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
const MONTH_MINUTES = 30 * DAY_MINUTES;
const YEAR_MINUTES = 365 * DAY_MINUTES;
const inWords = new Intl.RelativeTimeFormat("en-US", { numeric: "always" });

/**
 * "3 hours ago", "in 2 days", or "just now" within a minute either way: the units and rounding of
 * date-fns' formatDistanceStrict (tests/unit/relative-time.test.ts holds them equal), worded by the
 * browser's own Intl, so no date library comes to the page for it.
 */
export function formatRelative(date: Date, now: number): string {
  const milliseconds = date.getTime() - now;
  if (Math.abs(milliseconds) < MINUTE) return "just now";
  const minutes = Math.abs(milliseconds) / MINUTE;
  const sign = milliseconds < 0 ? -1 : 1;
  const say = (amount: number, unit: Intl.RelativeTimeFormatUnit) => inWords.format(sign * Math.round(amount), unit);
  if (minutes < 60) return say(minutes, "minute");
  if (minutes < DAY_MINUTES) return say(minutes / 60, "hour");
  if (minutes < MONTH_MINUTES) return say(minutes / DAY_MINUTES, "day");
  if (minutes < YEAR_MINUTES) return Math.round(minutes / MONTH_MINUTES) === 12 ? say(1, "year") : say(minutes / MONTH_MINUTES, "month");
  return say(minutes / YEAR_MINUTES, "year");
}

type RelativeTimeProps = Omit<React.ComponentProps<"time">, "children" | "dateTime"> & {
  /** An ISO 8601 string (or a Date). null/undefined renders `fallback`. */
  value: string | Date | null | undefined;
  /** Shown when there is no value, e.g. "Never used". Default "—". */
  fallback?: React.ReactNode;
  /** Words around the relative time, e.g. "Expires in 5 days" / "Expired 2 days ago". */
  describe?: (relative: string, past: boolean) => string;
};

/**
 * "3 hours ago" in a `<time dateTime>`, with the exact UTC time shown on hover and keyboard focus
 * (`data-exact`, drawn by app/globals.css) and given to assistive technology as its description.
 * No client JavaScript: written where it renders, on the server for a server component, and
 * right as of that render (docs/decisions/0063-shared-page-weight.md). A client component
 * hydrating it may be a moment later than the server's text, hence suppressHydrationWarning.
 */
export function RelativeTime({ value, fallback = "—", describe, className, ...props }: RelativeTimeProps) {
  if (value === null || value === undefined || value === "") {
    return <span className={cn("text-muted-foreground", className)}>{fallback}</span>;
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    return <span className={className}>{String(value)}</span>;
  }
  const exact = formatExactUtc(date);
  // The text is meant as of this render (a server component renders once per request).
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  const relative = formatRelative(date, now);
  return (
    <time
      dateTime={date.toISOString()}
      data-exact={exact}
      aria-description={exact}
      tabIndex={0}
      suppressHydrationWarning
      className={cn(
        "cursor-default rounded-sm whitespace-nowrap underline decoration-muted-foreground/40 decoration-dotted underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
        className,
      )}
      {...props}
    >
      {describe ? describe(relative, date.getTime() <= now) : relative}
    </time>
  );
}
