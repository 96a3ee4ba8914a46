"use client";

import { Bot } from "lucide-react";
import type { ActivityActorOptionDto } from "@/db/queries/activity";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";
import { FilterSelect, LogFilters } from "@/components/log-filters";
import { SelectItem } from "@/components/ui/select";
import { ACTIVITY_ACTIONS } from "@/core/activity";
import type { ActivityFilterValues } from "@/lib/activity-filters";

/** The activity history's schema, loaded when custom dates are applied rather than with the page. */
async function normalize(params: URLSearchParams): Promise<URLSearchParams | string> {
  const [{ activitySearchParams, parseActivityFilters }, { filtersError }] = await Promise.all([import("@/lib/activity-filters"), import("@/lib/audit-filters")]);
  const parsed = parseActivityFilters(params);
  return parsed.success ? activitySearchParams(parsed.data) : filtersError(parsed.error);
}

function actorDisplay(actors: ActivityActorOptionDto[], current: string | undefined): string | undefined {
  if (current === "system") return "System";
  return actors.find((actor) => actor.id === current)?.name;
}

/** The activity history's filter bar; `current` is the filters as URL parameters (the server's activitySearchParams). */
export function ActivityFiltersClient({ filters, current, actors, keys }: { filters: ActivityFilterValues; current: string; actors: ActivityActorOptionDto[]; keys: KeyOptionDto[] }) {
  return (
    <LogFilters
      current={current}
      range={filters}
      normalize={normalize}
      everything="Showing every change."
      gridClassName="lg:grid-cols-4"
    >
      {(change) => (
        <>
          <FilterSelect id="filter-action" label="Action" value={filters.action} onChange={(action) => change({ action })} anyLabel="All actions">
            {Object.entries(ACTIVITY_ACTIONS).map(([value, label]) => (
              <SelectItem key={value} value={value}>
                {label}
              </SelectItem>
            ))}
          </FilterSelect>
          <FilterSelect id="filter-actor" label="Actor" value={filters.actor} onChange={(actor) => change({ actor })} anyLabel="Everyone" display={actorDisplay(actors, filters.actor)}>
            <SelectItem value="system">
              <Bot className="size-4" aria-hidden /> System
            </SelectItem>
            {actors.map((actor) => (
              <SelectItem key={actor.id} value={actor.id}>
                {actor.name}
              </SelectItem>
            ))}
            {filters.actor && filters.actor !== "system" && !actors.some((actor) => actor.id === filters.actor) ? <SelectItem value={filters.actor}>Unknown person</SelectItem> : null}
          </FilterSelect>
          <KeyFilterSelect keys={keys} value={filters.key} onChange={(key) => change({ key })} />
        </>
      )}
    </LogFilters>
  );
}
