"use client";

import type { AuditFilterOptionsDto } from "@/lib/usage/filter-options";
import { FilterSelect, LogFilters, withCurrent } from "@/components/log-filters";
import { STATUS_CLASSES } from "@/core/request-log";
import type { AuditFilters } from "@/lib/audit-filters";
import { REFUSALS } from "@/lib/log-filter-labels";
import { EndpointFilterSelect, MethodFilterSelect } from "@/components/request-filter-selects";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";

/** The audit log's schema, loaded when custom dates are applied rather than with the page. */
async function normalize(params: URLSearchParams): Promise<URLSearchParams | string> {
  const { auditSearchParams, filtersError, parseAuditFilters } = await import("@/lib/audit-filters");
  const parsed = parseAuditFilters(params);
  return parsed.success ? auditSearchParams(parsed.data) : filtersError(parsed.error);
}

/** The audit log's filter bar; `current` is the filters as URL parameters (the server's auditSearchParams). */
export function AuditFiltersClient({
  filters,
  current,
  options,
  keys,
}: {
  filters: AuditFilters;
  current: string;
  options: AuditFilterOptionsDto;
  keys: KeyOptionDto[];
}) {
  return (
    <LogFilters
      current={current}
      range={filters}
      normalize={normalize}
      everything="Showing every request."
      // Six in a row from 1280px: the selects with a fixed set of choices keep room for the longest
      // ("Last 24 hours", "Any status", "No API access (plan)", "All methods"; at 0.8fr the Status
      // select showed "Any stat"); the endpoint and the key, unbounded names, share what is left.
      gridClassName="lg:grid-cols-3 xl:grid-cols-[minmax(9.5rem,1fr)_minmax(8.5rem,0.8fr)_minmax(0,1.5fr)_minmax(0,1.2fr)_minmax(12.5rem,1.1fr)_minmax(9.5rem,0.9fr)]"
    >
      {(change) => (
        <>
          <FilterSelect id="filter-status" label="Status" value={filters.status} onChange={(status) => change({ status })} anyLabel="Any status">
            <optgroup label="Classes">
              {STATUS_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </optgroup>
            <optgroup label="Codes">
              {withCurrent(options.statuses.map(String), filters.status?.endsWith("xx") ? undefined : filters.status).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </optgroup>
          </FilterSelect>
          <EndpointFilterSelect endpoints={options.endpoints} value={filters.endpoint} onChange={(endpoint) => change({ endpoint })} />
          <KeyFilterSelect keys={keys} value={filters.key} onChange={(key) => change({ key })} />
          <FilterSelect id="filter-refusal" label="Refusal" value={filters.error} onChange={(error) => change({ error })} anyLabel="Any">
            {(Object.keys(REFUSALS) as (keyof typeof REFUSALS)[]).map((code) => (
              <option key={code} value={code}>
                {REFUSALS[code]}
              </option>
            ))}
          </FilterSelect>
          <MethodFilterSelect methods={options.methods} value={filters.method} onChange={(method) => change({ method })} />
        </>
      )}
    </LogFilters>
  );
}
