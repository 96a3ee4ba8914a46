"use client";

import type { ActivityActorOptionDto } from "@/db/queries/activity";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";
import { FilterSelect, LogFilters } from "@/components/log-filters";
import { ACTIVITY_ACTIONS } from "@/core/activity";
import type { ActivityFilterValues } from "@/lib/activity-filters";

/** The activity history's schema, loaded when custom dates are applied rather than with the page. */
async function normalize(params: URLSearchParams): Promise<URLSearchParams | string> {
  const [{ activitySearchParams, parseActivityFilters }, { filtersError }] = await Promise.all([
    import("@/lib/activity-filters"),
    import("@/lib/audit-filters"),
  ]);
  const parsed = parseActivityFilters(params);
  return parsed.success ? activitySearchParams(parsed.data) : filtersError(parsed.error);
}

/** The activity history's filter bar; `current` is the filters as URL parameters (the server's activitySearchParams). */
export function ActivityFiltersClient({
  filters,
  current,
  actors,
  keys,
}: {
  filters: ActivityFilterValues;
  current: string;
  actors: ActivityActorOptionDto[];
  keys: KeyOptionDto[];
}) {
  return (
    <LogFilters current={current} range={filters} normalize={normalize} everything="Showing every change." gridClassName="lg:grid-cols-4">
      {(change) => (
        <>
          <FilterSelect id="filter-action" label="Action" value={filters.action} onChange={(action) => change({ action })} anyLabel="All actions">
            {Object.entries(ACTIVITY_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="filter-actor" label="Actor" value={filters.actor} onChange={(actor) => change({ actor })} anyLabel="Everyone">
            <option value="system">System</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.name}
              </option>
            ))}
            {filters.actor && filters.actor !== "system" && !actors.some((actor) => actor.id === filters.actor) ? (
              <option value={filters.actor}>Unknown person</option>
            ) : null}
          </FilterSelect>
          <KeyFilterSelect keys={keys} value={filters.key} onChange={(key) => change({ key })} />
        </>
      )}
    </LogFilters>
  );
}
