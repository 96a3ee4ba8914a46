"use client";

import { Bot } from "lucide-react";
import type { ActivityActorOptionDto } from "@/db/queries/activity";
import { KeyFilterSelect, type KeyOptionDto } from "@/components/key-filter-options";
import { FilterSelect, LogFilters } from "@/components/log-filters";
import { SelectItem } from "@/components/ui/select";
import { ACTIVITY_ACTIONS } from "@/core/activity";
import { activitySearchParams, parseActivityFilters, type ActivityFilterValues } from "@/lib/activity-filters";
import { filtersError } from "@/lib/audit-filters";

function normalize(params: URLSearchParams): URLSearchParams | string {
  const parsed = parseActivityFilters(params);
  return parsed.success ? activitySearchParams(parsed.data) : filtersError(parsed.error);
}

function actorDisplay(actors: ActivityActorOptionDto[], current: string | undefined): string | undefined {
  if (current === "system") return "System";
  return actors.find((actor) => actor.id === current)?.name;
}

export function ActivityFiltersClient({ filters, actors, keys }: { filters: ActivityFilterValues; actors: ActivityActorOptionDto[]; keys: KeyOptionDto[] }) {
  return (
    <LogFilters
      current={activitySearchParams(filters).toString()}
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
