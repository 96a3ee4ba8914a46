import { History, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ActivityPageDto } from "@/db/queries/activity";
import { ActivityEntries } from "@/components/activity-entries";
import { EmptyState } from "@/components/empty-state";
import { KeysetNav } from "@/components/keyset-nav";
import { LogPage } from "@/components/log-page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { activitySearchParams, hasActivityFilters, type ActivityFilterValues } from "@/lib/activity-filters";
import { ActivityFiltersClient } from "./activity-filters-client";
import { loadActivity } from "./load-activity";

export const metadata: Metadata = { title: "Activity" };

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
      filters={view.kind === "refused" ? null : <ActivityFiltersClient filters={filters} actors={view.actors} keys={view.keys} />}
    >
      {view.kind === "ok" ? <Entries orgSlug={orgSlug} base={base} filters={view.filters} page={view.page} /> : null}
    </LogPage>
  );
}

function Entries({ orgSlug, base, filters, page }: { orgSlug: string; base: string; filters: ActivityFilterValues; page: ActivityPageDto }) {
  const firstPage = !filters.before && !filters.after;
  if (page.rows.length === 0 && firstPage) {
    const filtered = hasActivityFilters(filters);
    return (
      <Card>
        <EmptyState
          icon={filtered ? <SearchX className="size-6" aria-hidden /> : <History className="size-6" aria-hidden />}
          title={filtered ? "No changes match these filters" : "No changes yet"}
          description={
            filtered
              ? "Widen the date range or remove a filter to see more changes."
              : "Creating or revoking a key, or changing the plan, shows up here with who did it and when."
          }
        >
          {filtered ? null : (
            <Button variant="outline" asChild>
              <Link href={`/${orgSlug}/settings/api`}>Go to API keys</Link>
            </Button>
          )}
        </EmptyState>
      </Card>
    );
  }
  return (
    <div className="space-y-3">
      <Card className="gap-0 overflow-hidden py-0">
        {page.rows.length > 0 ? (
          <ActivityEntries orgSlug={orgSlug} entries={page.rows} label="Changes" />
        ) : (
          <p className="px-6 py-10 text-center text-sm text-muted-foreground">No more changes this way. Go back to newer or older changes below.</p>
        )}
      </Card>
      <KeysetNav
        label="Activity pages"
        count={page.rows.length}
        noun={["change", "changes"]}
        newerHref={page.newer && `${base}?${activitySearchParams(filters, { after: page.newer })}`}
        olderHref={page.older && `${base}?${activitySearchParams(filters, { before: page.older })}`}
      />
    </div>
  );
}
