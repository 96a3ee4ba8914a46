"use client";

import { Loader2, X } from "lucide-react";
import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { RANGE_PRESETS } from "@/lib/log-filter-labels";
import { cn } from "@/lib/utils";
import { MODE_PARAM } from "@/lib/view-mode";

export type FilterChanges = Record<string, string | undefined>;

/** Keeps the value a shared link carries selectable even when it is not among the options. */
export function withCurrent(values: string[], current: string | undefined): string[] {
  return current && !values.includes(current) ? [current, ...values] : values;
}

/**
 * One filter of a log's filter bar: the browser's own select (no script to draw or open it), its
 * `children` the `<option>`s (or `<optgroup>`s) of the values; the empty value is "no filter".
 */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  anyLabel,
  className,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** The option that removes the filter; null when one of the values is always chosen. */
  anyLabel: string | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("min-w-0 space-y-1.5", className)}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <NativeSelect id={id} value={value ?? ""} onChange={(event) => onChange(event.target.value || undefined)}>
        {anyLabel === null ? null : <option value="">{anyLabel}</option>}
        {children}
      </NativeSelect>
    </div>
  );
}

/** Clearing the filters keeps the mode: test mode is where the page is, not a filter of it (lib/view-mode.ts). */
function keptAcrossClear(current: string): URLSearchParams {
  const mode = new URLSearchParams(current).get(MODE_PARAM);
  return new URLSearchParams(mode ? { [MODE_PARAM]: mode } : {});
}

/** Each filter change as a navigation to the new URL (in a transition, so the bar can say it is loading). */
function useFilterNavigation(current: string) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const push = (params: URLSearchParams) => {
    const query = params.toString();
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname));
  };
  const change = (changes: FilterChanges) => {
    const params = new URLSearchParams(current);
    for (const [name, value] of Object.entries(changes)) {
      if (value) params.set(name, value);
      else params.delete(name);
    }
    push(params);
  };
  return { pending, push, change };
}

/**
 * The filter bar of a newest-first log (the audit log, the activity history). The filters live in
 * the URL: each change is a navigation, so a filtered view can be shared and the back button
 * returns to the previous one. A change drops the page cursor and starts from the newest entry.
 */
export function LogFilters({
  current,
  range,
  normalize,
  everything,
  defaultRange,
  gridClassName,
  children,
}: {
  /** The current filters as URL parameters, without a cursor. */
  current: string;
  range: { range?: string; from?: string; to?: string };
  /**
   * The server's own schema: the parameters it would read, or the message a shared link would get.
   * Asked only when custom dates are applied, so it may load the schema then (zod stays out of the
   * page's first JavaScript: docs/decisions/0065-on-demand-dialogs.md).
   */
  normalize: (params: URLSearchParams) => URLSearchParams | string | Promise<URLSearchParams | string>;
  /** What the log shows without filters ("Showing every request."). */
  everything: string;
  /** The preset shown without a range in the URL; without one, no range means all time. */
  defaultRange?: string;
  gridClassName: string;
  children: (change: (changes: FilterChanges) => void) => ReactNode;
}) {
  const { pending, push, change } = useFilterNavigation(current);
  const [customOpen, setCustomOpen] = useState(false);
  const [customError, setCustomError] = useState<string | null>(null);
  const showCustom = customOpen || range.range === "custom";
  const active = [...new URLSearchParams(current).keys()].some((name) => name !== MODE_PARAM);

  const onRange = (value: string | undefined) => {
    setCustomError(null);
    if (value === "custom") {
      setCustomOpen(true);
      return;
    }
    setCustomOpen(false);
    change({ range: value === defaultRange ? undefined : value, from: undefined, to: undefined });
  };

  const applyCustom = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const params = new URLSearchParams(current);
    params.set("range", "custom");
    for (const name of ["from", "to"]) params.set(name, String(form.get(name) ?? ""));
    const normalized = await normalize(params);
    if (typeof normalized === "string") {
      setCustomError(normalized);
      return;
    }
    setCustomError(null);
    push(normalized);
  };

  return (
    <section aria-label="Filters" aria-busy={pending} className="space-y-3 rounded-xl border bg-card p-4">
      <div className={cn("grid grid-cols-2 gap-3", gridClassName)}>
        <FilterSelect
          id="filter-range"
          label="Date range"
          value={showCustom ? "custom" : (range.range ?? defaultRange)}
          onChange={onRange}
          anyLabel={defaultRange ? null : "All time"}
        >
          {Object.entries(RANGE_PRESETS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
          <option value="custom">Custom dates</option>
        </FilterSelect>
        {children(change)}
      </div>
      {showCustom ? <CustomDatesForm key={`${range.from}-${range.to}`} from={range.from} to={range.to} error={customError} onSubmit={applyCustom} /> : null}
      <FilterBarStatus pending={pending} active={active} everything={everything} onClear={() => push(keptAcrossClear(current))} />
    </section>
  );
}

/** The custom range's two UTC days; `defaultValue`s, so the form is keyed by the range it shows. */
function CustomDatesForm({
  from,
  to,
  error,
  onSubmit,
}: {
  from?: string;
  to?: string;
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
      <div className="space-y-1.5">
        <Label htmlFor="filter-from" className="text-xs text-muted-foreground">
          From (UTC day)
        </Label>
        <Input id="filter-from" name="from" type="date" defaultValue={from} className="w-44" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="filter-to" className="text-xs text-muted-foreground">
          To (UTC day, included)
        </Label>
        <Input id="filter-to" name="to" type="date" defaultValue={to} className="w-44" />
      </div>
      <Button type="submit" variant="secondary">
        Apply dates
      </Button>
      {error ? (
        <p role="alert" className="w-full text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** What the log shows (every entry, a filtered view, or an update under way), and the way back to every entry. */
function FilterBarStatus({ pending, active, everything, onClear }: { pending: boolean; active: boolean; everything: string; onClear: () => void }) {
  return (
    <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
      <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
        {pending ? (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden /> Updating…
          </>
        ) : active ? (
          "Filtered view: copy the address to share it."
        ) : (
          everything
        )}
      </p>
      {active ? (
        <Button variant="ghost" size="sm" onClick={onClear}>
          <X className="size-4" aria-hidden /> Clear filters
        </Button>
      ) : null}
    </div>
  );
}
