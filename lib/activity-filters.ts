import { z } from "zod";
import type { ActivityFilters } from "@/db/queries/activity";
import { ACTIVITY_ACTION_VALUES } from "@/core/activity";
import { checkRangeAndPage, filterSearchParams, rangeAndPageFields, searchParamsRecord, type SearchParamsInput } from "./audit-filters";
import { boundedString } from "./input-rules";

/**
 * The Activity page's URL (action, actor, key, date range): one schema read by the
 * page, its CSV export and the query, as the audit log's is.
 */
const activityFiltersSchema = z
  .object({
    ...rangeAndPageFields,
    action: z.enum(ACTIVITY_ACTION_VALUES, "Choose an action from the list.").optional(),
    actor: boundedString(100, "That actor id is too long.").trim().min(1).optional(),
    key: boundedString(100, "That key id is too long.").trim().min(1).optional(),
  })
  .superRefine(checkRangeAndPage);

type FitsTheQuery<T extends ActivityFilters> = T;
export type ActivityFilterValues = FitsTheQuery<z.output<typeof activityFiltersSchema>>;

const FILTER_PARAMS = ["action", "actor", "key", "range", "from", "to"] as const satisfies readonly (keyof ActivityFilterValues)[];

export function parseActivityFilters(params: SearchParamsInput) {
  return activityFiltersSchema.safeParse(searchParamsRecord(params));
}

export function activitySearchParams(filters: ActivityFilterValues, cursor?: Pick<ActivityFilters, "before" | "after">): URLSearchParams {
  return filterSearchParams(FILTER_PARAMS, filters, cursor);
}

export function hasActivityFilters(filters: ActivityFilterValues): boolean {
  return FILTER_PARAMS.some((name) => Boolean(filters[name]));
}
