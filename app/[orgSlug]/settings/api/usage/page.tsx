import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { LATENCY_RELATIVE_ERROR } from "@/core/latency-histogram";
import { EmptyState } from "@/components/empty-state";
import { LogPage, NoLogMatches } from "@/components/log-page";
import { NoRequests } from "@/components/no-requests";
import { UsageReportSkeleton } from "@/components/page-skeletons";
import { formatMs } from "@/components/chart-parts";
import { ErrorRateChart, LatencyChart, RequestsOverTimeChart } from "@/components/usage-charts";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { RANGE_PRESETS } from "@/lib/audit-filters";
import { publicBaseUrl } from "@/lib/base-url";
import { DEFAULT_USAGE_RANGE } from "@/core/request-log";
import { hasUsageFilters, usageSearchParams, type UsageFilters } from "@/lib/usage/filters";
import type { UsageReportDto } from "@/lib/usage/report";
import { parseTableView, type TableView } from "@/lib/usage/table-view";
import { loadUsage, type NoApiAccessDto } from "./load-usage";
import { UsageFiltersClient } from "./usage-filters-client";
import { UsageTables } from "./usage-tables";

export const metadata: Metadata = { title: "Usage" };

const DESCRIPTION = "How your organization's API keys are used: requests, errors and latency per key and endpoint, counted to the request. Times are UTC.";

export default async function UsagePage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orgSlug } = await params;
  const query = await searchParams;
  const view = await loadUsage(orgSlug, query);
  const base = `/${orgSlug}/settings/api/usage`;
  return (
    <LogPage
      title="Usage"
      description={DESCRIPTION}
      base={base}
      state={view}
      exportHref={null}
      filters={
        view.kind === "refused" ? null : (
          <UsageFiltersClient filters={view.filters} current={usageSearchParams(view.filters).toString()} options={view.options} keys={view.keys} />
        )
      }
    >
      {view.kind === "ok" ? (
        <Suspense fallback={<UsageReportSkeleton />}>
          <Report orgSlug={orgSlug} filters={view.filters} tableView={parseTableView(query)} report={view.report} noApiAccess={view.noApiAccess} />
        </Suspense>
      ) : null}
    </LogPage>
  );
}

const number = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const rate = (count: number, of: number) => (of === 0 ? "—" : count > 0 && count / of < 0.001 ? "<0.1%" : percent.format(count / of));
const requestCount = (count: number) => `${number.format(count)} ${count === 1 ? "request" : "requests"}`;
const latency = (ms: number | null) => (ms === null ? "—" : formatMs(ms));
const instant = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

function windowName(filters: UsageFilters, report: UsageReportDto): string {
  if (filters.range !== "custom") return RANGE_PRESETS[filters.range ?? DEFAULT_USAGE_RANGE].toLowerCase();
  return `window from ${instant(report.window.from)} to ${instant(report.window.to)} UTC`;
}

/** Instead of "create a key, make a call": a plan without API access makes no calls. */
function NoApiAccess({ notice }: { notice: NoApiAccessDto }) {
  return (
    <Card>
      <EmptyState icon={<KeyRound className="size-6" aria-hidden />} title={notice.title} description={notice.description}>
        {notice.planHref ? (
          <Button asChild>
            <Link href={notice.planHref}>Go to Plan</Link>
          </Button>
        ) : null}
      </EmptyState>
    </Card>
  );
}

async function Report({
  orgSlug,
  filters,
  tableView,
  report: loading,
  noApiAccess,
}: {
  orgSlug: string;
  filters: UsageFilters;
  tableView: TableView;
  report: Promise<UsageReportDto>;
  noApiAccess: NoApiAccessDto | null;
}) {
  const report = await loading;
  const narrowed = hasUsageFilters({ ...filters, range: undefined, from: undefined, to: undefined });
  // Traffic from before a downgrade is still shown; an empty report says why there is none.
  if (noApiAccess && report.totals.requests === 0 && (report.keys.length === 0 || !narrowed)) return <NoApiAccess notice={noApiAccess} />;
  if (report.keys.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={<KeyRound className="size-6" aria-hidden />}
          title="No API keys yet"
          description="Usage counts the requests made with your organization's keys. Create a key, make a call with it, and its traffic shows up here within seconds."
        >
          <Button asChild>
            <Link href={`/${orgSlug}/settings/api`}>Go to API keys</Link>
          </Button>
        </EmptyState>
      </Card>
    );
  }
  if (report.totals.requests === 0) {
    if (narrowed) return <NoLogMatches noun={["request", "requests"]} />;
    return (
      <NoRequests
        title={`No requests in the ${windowName(filters, report)}`}
        description="Choose a longer window above, or make a call: send a key in the X-API-Key header as below, and it is counted here within seconds."
        baseUrl={await publicBaseUrl()}
      />
    );
  }
  return (
    <div className="space-y-6">
      <UsageTotals filters={filters} report={report} />
      <UsageCharts report={report} />
      <UsageTables breakdowns={report.breakdowns} view={tableView} orgSlug={orgSlug} filters={filters} window={report.window} />
    </div>
  );
}

/** The window's four figures: requests, client and server error rates, latency. */
function UsageTotals({ filters, report }: { filters: UsageFilters; report: UsageReportDto }) {
  const { totals } = report;
  const tiles = [
    { label: "Requests", value: number.format(totals.requests), note: windowName(filters, report).replace(/^./, (c) => c.toUpperCase()) },
    { label: "Client errors (4xx)", value: rate(totals.errors4xx, totals.requests), note: requestCount(totals.errors4xx) },
    { label: "Server errors (5xx)", value: rate(totals.errors5xx, totals.requests), note: requestCount(totals.errors5xx) },
    { label: "Latency p95", value: latency(totals.p95Ms), note: `p50 ${latency(totals.p50Ms)} · p99 ${latency(totals.p99Ms)}` },
  ];
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map((tile) => (
        <Card key={tile.label} className="gap-1 px-4 py-4 sm:px-6">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{tile.label}</p>
          <p className="text-2xl font-semibold tabular-nums">{tile.value}</p>
          <p className="text-xs text-muted-foreground">{tile.note}</p>
        </Card>
      ))}
    </section>
  );
}

/** Requests, error rate and latency over the window, one point per bucket. */
function UsageCharts({ report }: { report: UsageReportDto }) {
  const per = report.window.bucket;
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Requests</CardTitle>
          <CardDescription>
            Per {per}, stacked by status class, from {instant(report.window.from)} to {report.window.open ? "now" : instant(report.window.to)} (UTC).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <RequestsOverTimeChart points={report.series} grain={per} />
        </CardContent>
      </Card>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Error rate</CardTitle>
            <CardDescription>Share of each {per}&apos;s requests answered 4xx and 5xx.</CardDescription>
          </CardHeader>
          <CardContent>
            <ErrorRateChart points={report.series} grain={per} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Latency</CardTitle>
            <CardDescription>
              p50, p95 and p99 per {per}, within {LATENCY_RELATIVE_ERROR * 100} % of the exact values.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <LatencyChart points={report.series} grain={per} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
