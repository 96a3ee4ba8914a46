"use client";

import * as React from "react";
import { formatDistanceStrict } from "date-fns";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";

/** "2026-11-23 14:05:09 UTC": identical on the server and in every browser. */
function formatExactUtc(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** "3 hours ago", "in 2 days", or "just now" within a minute either way. */
function formatRelative(date: Date, now: number): string {
  if (Math.abs(now - date.getTime()) < 60_000) return "just now";
  return formatDistanceStrict(date, now, { addSuffix: true });
}

// One shared clock for every RelativeTime on the page, ticking while any is mounted.
// The server (and hydration) snapshot is null, so the first render is the exact UTC time on both
// sides and the relative text appears right after hydration without a mismatch.
const TICK_MS = 30_000;
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const getSnapshot = () => now;
const getServerSnapshot = () => null;

type RelativeTimeProps = Omit<React.ComponentProps<"time">, "children" | "dateTime"> & {
  /** An ISO 8601 string (or a Date). null/undefined renders `fallback`. */
  value: string | Date | null | undefined;
  /** Shown when there is no value, e.g. "Never used". Default "—". */
  fallback?: React.ReactNode;
  /** Words around the relative time, e.g. "Expires in 5 days" / "Expired 2 days ago". */
  describe?: (relative: string, past: boolean) => string;
};

/** "3 hours ago" in a `<time dateTime>`, with the exact UTC time in a tooltip (on hover and keyboard focus). */
export function RelativeTime({ value, fallback = "—", describe, className, ...props }: RelativeTimeProps) {
  const current = React.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);

  if (value === null || value === undefined || value === "") {
    return <span className={cn("text-muted-foreground", className)}>{fallback}</span>;
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    return <span className={className}>{String(value)}</span>;
  }
  const exact = formatExactUtc(date);

  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <time
          dateTime={date.toISOString()}
          tabIndex={0}
          className={cn("cursor-default rounded-sm whitespace-nowrap underline decoration-muted-foreground/40 decoration-dotted underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50", className)}
          {...props}
        >
          {current === null ? exact : describe ? describe(formatRelative(date, current), date.getTime() <= current) : formatRelative(date, current)}
        </time>
      </TooltipTrigger>
      <TooltipContent>{exact}</TooltipContent>
    </Tooltip>
  );
}
