import "server-only";
import { activityCsv } from "@/db/queries/activity";
import { utcDay } from "@/core/time";
import { parseActivityFilters } from "@/lib/activity-filters";
import { filtersError } from "@/lib/audit-filters";
import { csvResponse, refusal } from "../../audit/export/export-audit-csv";
import { activityAccess } from "../load-activity";

/** The activity history as CSV: every entry matching the URL's filters, streamed by the database. The role is read from the database here. */
export async function exportActivityCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  const access = await activityAccess(slug);
  if (!access.ok) return refusal(access.status, access.message);
  const { membership } = access;
  const filters = parseActivityFilters(searchParams);
  if (!filters.success) return refusal(400, `The export's filters are not valid: ${filtersError(filters.error)}`);
  return csvResponse(await activityCsv(membership.orgId, filters.data, { now }), `activity-${membership.orgSlug}-${utcDay(now)}.csv`);
}
