import type { Metadata } from "next";
import type { AuditLogPageDto } from "@/db/queries/audit-log";
import { NoRequests } from "@/components/no-requests";
import { RequestSearch } from "@/components/request-search";
import { LogPage, LogResults, NoLogMatchesState } from "@/components/log-page";
import { Card } from "@/components/ui/card";
import { utcDay } from "@/core/time";
import { auditSearchParams, hasFilters, type AuditFilters } from "@/lib/audit-filters";
import { publicBaseUrl } from "@/lib/base-url";
import { AuditFiltersClient } from "../audit-filters-client";
import { AuditRows, type KeyEndings } from "../audit-rows";
import { LiveAuditLog } from "../live-audit-log";
import { loadAuditLog } from "../load-audit-log";

export const metadata: Metadata = { title: "Audit log" };

const NOUN: [string, string] = ["request", "requests"];

const DESCRIPTION = "Every request made with your organization's API keys, revoked keys included, newest first. Times are UTC.";

export default async function AuditLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orgSlug } = await params;
  const view = await loadAuditLog(orgSlug, await searchParams);
  const base = `/${orgSlug}/settings/api/audit`;

  const filters = view.kind === "refused" || view.kind === "invalid" ? {} : view.filters;
  return (
    <LogPage
      title="Audit log"
      description={DESCRIPTION}
      base={base}
      state={view}
      exportHref={view.kind === "ok" && view.page.rows.length > 0 ? `${base}/export?${auditSearchParams(filters)}` : null}
      search={<RequestSearch base={base} className="w-full sm:w-80" />}
      filters={
        view.kind === "refused" ? null : (
          <AuditFiltersClient filters={filters} current={auditSearchParams(filters).toString()} options={view.options} keys={view.keys} />
        )
      }
    >
      {view.kind === "ok" ? (
        <Results orgSlug={orgSlug} base={base} filters={view.filters} page={view.page} endings={view.endings} liveSince={view.liveSince} />
      ) : null}
    </LogPage>
  );
}

/** Why this view of the log cannot go live, or null: live shows new requests, so the newest page of a range that reaches now. */
function liveBlocked(filters: AuditFilters): string | null {
  if (filters.before || filters.after) return "Live shows the newest requests: go back to the newest page to turn it on.";
  if (filters.range === "custom" && filters.to && filters.to < utcDay(new Date()))
    return "Live shows requests as they come: choose a range that includes today.";
  return null;
}

async function Results({
  orgSlug,
  base,
  filters,
  page,
  endings,
  liveSince,
}: {
  orgSlug: string;
  base: string;
  filters: AuditFilters;
  page: AuditLogPageDto;
  endings: KeyEndings;
  liveSince: number;
}) {
  const firstPage = !filters.before && !filters.after;
  if (page.rows.length === 0 && firstPage && !hasFilters(filters)) {
    return (
      <NoRequests
        title="No API requests yet"
        description="Every call made with one of your keys shows up here within seconds. Here is how to make your first call."
        baseUrl={await publicBaseUrl()}
      />
    );
  }
  const live = (
    <LiveAuditLog
      orgSlug={orgSlug}
      query={auditSearchParams(filters).toString()}
      rows={page.rows}
      initialRows={<AuditRows orgSlug={orgSlug} rows={page.rows} endings={endings} />}
      since={liveSince}
      endings={endings}
      blocked={liveBlocked(filters)}
      empty={<NoLogMatchesState noun={NOUN} />}
    />
  );
  // Nothing matches yet: no pages, but live can wait for the first match.
  if (page.rows.length === 0 && firstPage) return <Card className="gap-0 overflow-hidden py-0">{live}</Card>;
  return (
    <LogResults
      noun={NOUN}
      pagesLabel="Audit log pages"
      count={page.rows.length}
      newerHref={page.newer && `${base}?${auditSearchParams(filters, { after: page.newer })}`}
      olderHref={page.older && `${base}?${auditSearchParams(filters, { before: page.older })}`}
    >
      {live}
    </LogResults>
  );
}
