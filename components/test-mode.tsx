"use client";

import { FlaskConical } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { MODE_PARAM, viewModeOf, withMode } from "@/lib/view-mode";
import { cn } from "@/lib/utils";
import type { Mode } from "@/core/enums";

// The dashboard's test mode lives in the URL (docs/features/test-mode.md#dashboard): the switch is
// a link to the same page in the other mode, so it works before any script runs and a view can be
// shared; the banner says which data the pages show while it is on.

/** The current URL in `mode`; the page cursors go, as they point into the other mode's rows. */
export function hrefInMode(pathname: string, params: URLSearchParams, mode: Mode): string {
  const next = new URLSearchParams(params);
  next.delete("before");
  next.delete("after");
  if (mode === "live") next.delete(MODE_PARAM);
  else next.set(MODE_PARAM, mode);
  const query = next.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function TestModeSwitch() {
  const pathname = usePathname();
  const params = useSearchParams();
  const on = viewModeOf(params) === "test";
  return (
    <Link
      href={hrefInMode(pathname, params, on ? "live" : "test")}
      role="switch"
      aria-checked={on}
      prefetch={false}
      className="flex shrink-0 items-center gap-2 rounded-md px-2 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground"
    >
      <span className="hidden sm:inline">Test mode</span>
      <span className="sr-only sm:hidden">Test mode</span>
      <span aria-hidden className={cn("inline-flex h-5 w-9 items-center rounded-full p-0.5 transition-colors", on ? "bg-warning" : "bg-input")}>
        <span className={cn("size-4 rounded-full bg-background shadow-xs transition-transform", on && "translate-x-4")} />
      </span>
    </Link>
  );
}

export function TestModeBanner() {
  const on = viewModeOf(useSearchParams()) === "test";
  if (!on) return null;
  return (
    <div role="status" className="border-b border-warning/50 bg-warning/15 text-warning-foreground">
      <p className="mx-auto flex w-full max-w-7xl items-center gap-2 px-4 py-1.5 text-sm sm:px-6">
        <FlaskConical className="size-4 shrink-0" aria-hidden />
        <span>
          <strong className="font-semibold">Test mode.</strong> Keys, usage and logs show test data only; nothing here touches your live invoices or quota.
        </span>
      </p>
    </div>
  );
}

/** A dashboard link that stays in test mode when it is on. */
export function useModeHref(href: string): string {
  return withMode(href, viewModeOf(useSearchParams()));
}
