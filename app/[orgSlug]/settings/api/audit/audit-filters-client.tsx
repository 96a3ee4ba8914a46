"use client";

import { Loader2, X } from "lucide-react";
import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import type { AuditFilterOptionsDto } from "@/db/queries/audit-log";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectGroup, SelectItem, SelectLabel, SelectSeparator, SelectTrigger, SelectValue } from "@/components/ui/select";
import { STATUS_CLASSES } from "@/db/request-log";
import { auditSearchParams, filtersError, hasFilters, parseAuditFilters, RANGE_PRESETS, type AuditFilters } from "@/lib/audit-filters";
import { cn } from "@/lib/utils";
import type { AuditKeyOptionDto } from "./load-audit-log";

type FilterName = "range" | "endpoint" | "status" | "key" | "method";
type Changes = Partial<Record<FilterName | "from" | "to", string | undefined>>;

// Radix Select has no empty value: this stands for "no filter".
const ANY = "any";

/** Keeps the value a shared link carries selectable even when it is not among the options. */
function withCurrent(values: string[], current: string | undefined): string[] {
  return current && !values.includes(current) ? [current, ...values] : values;
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  anyLabel,
  display,
  className,
  children,
}: {
  id: string;
  /** What the closed select shows for the chosen value, when the option itself says more. */
  display?: string;
  className?: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  anyLabel: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("min-w-0 space-y-1.5", className)}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Select value={value ?? ANY} onValueChange={(next) => onChange(next === ANY ? undefined : next)}>
        <SelectTrigger id={id} className="w-full" aria-label={label}>
          <SelectValue>{display}</SelectValue>
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ANY}>{anyLabel}</SelectItem>
          <SelectSeparator />
          {children}
        </SelectContent>
      </Select>
    </div>
  );
}

/**
 * The filters live in the URL: each change is a navigation, so a filtered view can be shared and
 * the back button returns to the previous one.
 */
export function AuditFiltersClient({ filters, options, keys }: { filters: AuditFilters; options: AuditFilterOptionsDto; keys: AuditKeyOptionDto[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const [customOpen, setCustomOpen] = useState(false);
  const [customError, setCustomError] = useState<string | null>(null);
  const showCustom = customOpen || filters.range === "custom";
  const active = hasFilters(filters);

  const push = (params: URLSearchParams) => {
    const query = params.toString();
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname));
  };
  // Without the page cursor: a changed filter starts again from the newest request.
  const change = (changes: Changes) => {
    const params = auditSearchParams(filters);
    for (const [name, value] of Object.entries(changes)) {
      if (value) params.set(name, value);
      else params.delete(name);
    }
    push(params);
  };

  const onRange = (range: string | undefined) => {
    setCustomError(null);
    if (range === "custom") {
      setCustomOpen(true);
      return;
    }
    setCustomOpen(false);
    change({ range, from: undefined, to: undefined });
  };

  const applyCustom = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const params = auditSearchParams(filters);
    params.set("range", "custom");
    for (const name of ["from", "to"]) params.set(name, String(form.get(name) ?? ""));
    // The same schema as the server's, so the message is the one a shared link would get.
    const parsed = parseAuditFilters(params);
    if (!parsed.success) {
      setCustomError(filtersError(parsed.error));
      return;
    }
    setCustomError(null);
    push(auditSearchParams(parsed.data));
  };

  return (
    <section aria-label="Filters" aria-busy={pending} className="space-y-3 rounded-xl border bg-card p-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1.8fr)_minmax(0,1.4fr)_minmax(0,1.1fr)]">
        <FilterSelect id="filter-range" label="Date range" value={showCustom ? "custom" : filters.range} onChange={onRange} anyLabel="All time">
          {Object.entries(RANGE_PRESETS).map(([value, label]) => (
            <SelectItem key={value} value={value}>
              {label}
            </SelectItem>
          ))}
          <SelectItem value="custom">Custom dates</SelectItem>
        </FilterSelect>
        <FilterSelect id="filter-status" label="Status" value={filters.status} onChange={(status) => change({ status })} anyLabel="Any status">
          <SelectGroup>
            <SelectLabel>Classes</SelectLabel>
            {STATUS_CLASSES.map((c) => (
              <SelectItem key={c} value={c}>
                {c}
              </SelectItem>
            ))}
          </SelectGroup>
          <SelectGroup>
            <SelectLabel>Codes</SelectLabel>
            {withCurrent(options.statuses.map(String), filters.status?.endsWith("xx") ? undefined : filters.status).map((code) => (
              <SelectItem key={code} value={code}>
                {code}
              </SelectItem>
            ))}
          </SelectGroup>
        </FilterSelect>
        <FilterSelect
          id="filter-endpoint"
          label="Endpoint"
          value={filters.endpoint}
          onChange={(endpoint) => change({ endpoint })}
          anyLabel="All endpoints"
          className="col-span-2 lg:col-span-1"
        >
          {withCurrent(options.endpoints, filters.endpoint).map((endpoint) => (
            <SelectItem key={endpoint} value={endpoint} className="font-mono text-xs">
              {endpoint}
            </SelectItem>
          ))}
        </FilterSelect>
        <FilterSelect
          id="filter-key"
          label="API key"
          value={filters.key}
          onChange={(key) => change({ key })}
          anyLabel="All keys"
          display={keys.find((key) => key.id === filters.key)?.name}
        >
          {keys.map((key) => (
            <SelectItem key={key.id} value={key.id}>
              {key.name} <span className="font-mono text-xs text-muted-foreground">{key.hint}</span>
              {key.revoked ? <span className="text-xs text-muted-foreground"> · revoked</span> : null}
            </SelectItem>
          ))}
          {filters.key && !keys.some((key) => key.id === filters.key) ? <SelectItem value={filters.key}>Unknown key</SelectItem> : null}
        </FilterSelect>
        <FilterSelect id="filter-method" label="Method" value={filters.method} onChange={(method) => change({ method })} anyLabel="All methods">
          {withCurrent(options.methods, filters.method).map((method) => (
            <SelectItem key={method} value={method} className="font-mono text-xs">
              {method}
            </SelectItem>
          ))}
        </FilterSelect>
      </div>
      {showCustom ? (
        <form key={`${filters.from}-${filters.to}`} onSubmit={applyCustom} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="space-y-1.5">
            <Label htmlFor="filter-from" className="text-xs text-muted-foreground">
              From (UTC day)
            </Label>
            <Input id="filter-from" name="from" type="date" defaultValue={filters.from} className="w-44" />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="filter-to" className="text-xs text-muted-foreground">
              To (UTC day, included)
            </Label>
            <Input id="filter-to" name="to" type="date" defaultValue={filters.to} className="w-44" />
          </div>
          <Button type="submit" variant="secondary">
            Apply dates
          </Button>
          {customError ? (
            <p role="alert" className="w-full text-sm text-destructive">
              {customError}
            </p>
          ) : null}
        </form>
      ) : null}
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
          {pending ? (
            <>
              <Loader2 className="size-4 animate-spin" aria-hidden /> Updating…
            </>
          ) : active ? (
            "Filtered view: copy the address to share it."
          ) : (
            "Showing every request."
          )}
        </p>
        {active ? (
          <Button variant="ghost" size="sm" onClick={() => push(new URLSearchParams())}>
            <X className="size-4" aria-hidden /> Clear filters
          </Button>
        ) : null}
      </div>
    </section>
  );
}
