import "server-only";
import { getActivityActors, listActivity, type ActivityActorOptionDto, type ActivityPageDto } from "@/db/queries/activity";
import type { KeyOptionDto } from "@/components/key-filter-options";
import { parseActivityFilters, type ActivityFilterValues } from "@/lib/activity-filters";
import { filtersError, type SearchParamsInput } from "@/lib/audit-filters";
import { orgAccess, type OrgAccess } from "@/lib/org-access";
import { listKeyNames } from "@/db/queries/api-keys";

/** Who may read an organization's activity history: the page and the CSV export ask before reading an entry. */
export function activityAccess(slug: string): Promise<OrgAccess> {
  return orgAccess(slug, "activity.view");
}

interface Choices {
  actors: ActivityActorOptionDto[];
  keys: KeyOptionDto[];
}

export type ActivityView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | ({ kind: "invalid"; message: string } & Choices)
  | ({ kind: "ok"; filters: ActivityFilterValues; page: ActivityPageDto } & Choices);

/** Everything the Activity page shows for this URL, or why it shows nothing. */
export async function loadActivity(slug: string, searchParams: SearchParamsInput): Promise<ActivityView> {
  const access = await activityAccess(slug);
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId } = access.membership;
  const filters = parseActivityFilters(searchParams);
  const choices = Promise.all([getActivityActors(orgId), listKeyNames(orgId)]).then(([actors, keys]) => ({ actors, keys }));
  if (!filters.success) return { kind: "invalid", message: filtersError(filters.error), ...(await choices) };
  const [chosen, page] = await Promise.all([choices, listActivity(orgId, filters.data)]);
  return { kind: "ok", filters: filters.data, page, ...chosen };
}
