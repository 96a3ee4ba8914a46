"use client";

import type { AuditFilterOptionsDto } from "@/db/queries/audit-log";
import { FilterSelect, LogFilters, withCurrent } from "@/components/log-filters";
import { EndpointFilterSelect, MethodFilterSelect } from "@/components/request-filter-selects";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";
import { STATUS_CLASSES } from "@/core/request-log";
import { filtersError } from "@/lib/audit-filters";
import { DEFAULT_USAGE_RANGE, parseUsageFilters, usageSearchParams, type UsageFilters } from "@/lib/usage/filters";

function normalize(params: URLSearchParams): URLSearchParams | string {
  const parsed = parseUsageFilters(params);
  return parsed.success ? usageSearchParams(parsed.data) : filtersError(parsed.error);
}

/** The window and the filters of the Usage page, each change a navigation to the URL that holds it. */
export function UsageFiltersClient({ filters, options, keys }: { filters: UsageFilters; options: AuditFilterOptionsDto; keys: KeyOptionDto[] }) {
  return (
    <LogFilters
      current={usageSearchParams(filters).toString()}
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
