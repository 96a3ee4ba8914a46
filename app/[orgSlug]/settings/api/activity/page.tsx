import { History } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ActivityPageDto } from "@/db/queries/activity";
import { ActivityEntries } from "@/components/activity-entries";
import { EmptyState } from "@/components/empty-state";
import { LogPage, LogResults, NoLogMatches } from "@/components/log-page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { activitySearchParams, hasActivityFilters, type ActivityFilterValues } from "@/lib/activity-filters";
import { ActivityFiltersClient } from "./activity-filters-client";
import { loadActivity } from "./load-activity";

export const metadata: Metadata = { title: "Activity" };

const NOUN: [string, string] = ["change", "changes"];

const DESCRIPTION = "Every change to your keys, plan and settings: who made it, from where, and what it was before and after. Newest first.";

export default async function ActivityPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orgSlug } = await params;
  const view = await loadActivity(orgSlug, await searchParams);
  const base = `/${orgSlug}/settings/api/activity`;

  const filters = view.kind === "refused" || view.kind === "invalid" ? {} : view.filters;
  return (
    <LogPage
      title="Activity"
      description={DESCRIPTION}
      base={base}
      state={view}
      exportHref={view.kind === "ok" && view.page.rows.length > 0 ? `${base}/export?${activitySearchParams(filters)}` : null}
      filters={
        view.kind === "refused" ? null : (
          <ActivityFiltersClient filters={filters} current={activitySearchParams(filters).toString()} actors={view.actors} keys={view.keys} />
        )
      }
    >
      {view.kind === "ok" ? <Entries orgSlug={orgSlug} base={base} filters={view.filters} page={view.page} /> : null}
    </LogPage>
  );
}

function Entries({ orgSlug, base, filters, page }: { orgSlug: string; base: string; filters: ActivityFilterValues; page: ActivityPageDto }) {
  const firstPage = !filters.before && !filters.after;
  if (page.rows.length === 0 && firstPage && hasActivityFilters(filters)) return <NoLogMatches noun={NOUN} />;
  if (page.rows.length === 0 && firstPage) {
    return (
      <Card>
        <EmptyState
          icon={<History className="size-6" aria-hidden />}
          title="No changes yet"
          description="Creating or revoking a key, or changing the plan, shows up here with who did it and when."
        >
          <Button variant="outline" asChild>
            <Link href={`/${orgSlug}/settings/api`}>Go to API keys</Link>
          </Button>
        </EmptyState>
      </Card>
    );
  }
  return (
    <LogResults
      noun={NOUN}
      pagesLabel="Activity pages"
      count={page.rows.length}
      newerHref={page.newer && `${base}?${activitySearchParams(filters, { after: page.newer })}`}
      olderHref={page.older && `${base}?${activitySearchParams(filters, { before: page.older })}`}
    >
      <ActivityEntries orgSlug={orgSlug} entries={page.rows} label="Changes" />
    </LogResults>
  );
}
