import "server-only";
import { listKeyNames } from "@/db/queries/api-keys";
import { getAuditFilterOptions, type AuditFilterOptionsDto } from "@/lib/usage/filter-options";
import type { MembershipDto } from "@/db/queries/organizations";
import type { KeyOptionDto } from "@/components/key-filter-options";
import { filtersError } from "@/lib/audit-filters";
import { can } from "@/lib/authz";
import { orgAccess, type OrgAccess } from "@/lib/org-access";
import { PLANS, plansWith } from "@/lib/plans/catalog";
import { parseUsageFilters, usageWindow, type UsageFilters } from "@/lib/usage/filters";
import { usageReport, type UsageReportDto } from "@/lib/usage/report";
import { booksOf, viewModeOf } from "@/lib/view-mode";

/** Who may read an organization's usage: the page and the CSV ask before reading a row. */
export function usageAccess(slug: string): Promise<OrgAccess> {
  return orgAccess(slug, "usage.view");
}

/** What the page says instead of "make a call" when the plan has no API access: who may change the plan gets a link to it. */
export interface NoApiAccessDto {
  title: string;
  description: string;
  planHref: string | null;
}

function noApiAccess(membership: MembershipDto): NoApiAccessDto | null {
  const plan = PLANS[membership.plan];
  if (plan.apiAccess) return null;
  const mayChange = can(membership.role, "plan.manage");
  return {
    title: `The ${plan.label} plan has no API access`,
    description: `Usage counts calls to the API, and on the ${plan.label} plan every call is refused. API access comes with ${plansWith("apiAccess")}: ${mayChange ? "switch plans on the Plan page." : "an owner can switch plans on the Plan page."}`,
    planHref: mayChange ? `/${membership.orgSlug}/settings/plan` : null,
  };
}

export type UsageView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | { kind: "invalid"; message: string; filters: UsageFilters; options: AuditFilterOptionsDto; keys: KeyOptionDto[] }
  | {
      kind: "ok";
      filters: UsageFilters;
      report: Promise<UsageReportDto>;
      options: AuditFilterOptionsDto;
      keys: KeyOptionDto[];
      noApiAccess: NoApiAccessDto | null;
    };

/**
 * Everything the Usage page shows for this URL at `now`, or why it shows nothing. The report is
 * a promise: the page sends its header and filters at once and streams the numbers after them.
 */
export async function loadUsage(slug: string, searchParams: Record<string, string | string[] | undefined>, now = new Date()): Promise<UsageView> {
  const access = await usageAccess(slug);
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId } = access.membership;
  const books = booksOf(orgId, viewModeOf(searchParams));
  const options = getAuditFilterOptions(books);
  const invalid = async (message: string, filters: UsageFilters): Promise<UsageView> => ({
    kind: "invalid",
    message,
    filters,
    options: await options,
    keys: await listKeyNames(orgId, books.mode),
  });
  const filters = parseUsageFilters(searchParams);
  if (!filters.success) return invalid(filtersError(filters.error), {});
  const window = usageWindow(filters.data, now);
  if (!window.ok) return invalid(window.message, filters.data);
  const [choices, keys] = await Promise.all([options, listKeyNames(orgId, books.mode)]);
  // Begun once what the page's shell needs is read, and after a turn of the event loop: merging
  // the numbers is CPU work that would otherwise hold back the shell's first byte.
  const report = new Promise<void>((resolve) => setImmediate(resolve)).then(() => usageReport(books, filters.data, window.window));
  // Awaited by the page, under Suspense; a failure shows there, in the route's error boundary.
  report.catch(() => {});
  return { kind: "ok", filters: filters.data, report, options: choices, keys, noApiAccess: noApiAccess(access.membership) };
}
