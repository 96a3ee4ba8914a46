"use client";

import type { AuditFilterOptionsDto } from "@/lib/usage/filter-options";
import { FilterSelect, LogFilters, withCurrent } from "@/components/log-filters";
import { EndpointFilterSelect, MethodFilterSelect } from "@/components/request-filter-selects";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";
import { DEFAULT_USAGE_RANGE, STATUS_CLASSES } from "@/core/request-log";
import type { UsageFilters } from "@/lib/usage/filters";

/** The Usage page's schema, loaded when custom dates are applied rather than with the page. */
async function normalize(params: URLSearchParams): Promise<URLSearchParams | string> {
  const [{ filtersError }, { parseUsageFilters, usageSearchParams }] = await Promise.all([import("@/lib/audit-filters"), import("@/lib/usage/filters")]);
  const parsed = parseUsageFilters(params);
  return parsed.success ? usageSearchParams(parsed.data) : filtersError(parsed.error);
}

/**
 * The window and the filters of the Usage page, each change a navigation to the URL that holds it;
 * `current` is the filters as URL parameters (the server's usageSearchParams).
 */
export function UsageFiltersClient({
  filters,
  current,
  options,
  keys,
}: {
  filters: UsageFilters;
  current: string;
  options: AuditFilterOptionsDto;
  keys: KeyOptionDto[];
}) {
  return (
    <LogFilters
      current={current}
      range={filters}
      normalize={normalize}
      defaultRange={DEFAULT_USAGE_RANGE}
      everything="Showing every request of the last 24 hours."
      gridClassName="lg:grid-cols-3 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)_minmax(0,1.5fr)_minmax(0,0.8fr)_minmax(0,0.8fr)]"
    >
      {(change) => (
        <>
          <KeyFilterSelect keys={keys} value={filters.key} onChange={(key) => change({ key })} />
          <EndpointFilterSelect endpoints={options.endpoints} value={filters.endpoint} onChange={(endpoint) => change({ endpoint })} />
          <MethodFilterSelect methods={options.methods} value={filters.method} onChange={(method) => change({ method })} />
          <FilterSelect id="filter-status" label="Status" value={filters.status} onChange={(status) => change({ status })} anyLabel="Any status">
            {withCurrent([...STATUS_CLASSES], filters.status).map((statusClass) => (
              <option key={statusClass} value={statusClass}>
                {statusClass}
              </option>
            ))}
          </FilterSelect>
        </>
      )}
    </LogFilters>
  );
}
