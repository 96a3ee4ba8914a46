import "server-only";
import { activityCsv } from "@/db/queries/activity";
import { parseActivityFilters } from "@/lib/activity-filters";
import { logCsvDownload } from "@/lib/csv-download";
import { activityAccess } from "../load-activity";

/** The activity history as CSV for the URL's filters; the role is read from the database here. */
export function exportActivityCsv(slug: string, searchParams: URLSearchParams, now = new Date()): Promise<Response> {
  return logCsvDownload({
    access: activityAccess(slug),
    filters: parseActivityFilters(searchParams),
    rows: (orgId, filters) => activityCsv(orgId, filters, { now }),
    name: "activity",
    now,
  });
}
