import type { Mode } from "@/core/enums";
import { ArrowRight } from "lucide-react";
import Link from "next/link";
import type { KeyUsageDto, RecentCallDto } from "@/db/queries/key-usage";
import { MethodLabel, RequestRows, StatusCodeBadge } from "@/components/request-format";
import { requestHref } from "@/lib/audit-filters";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatMs } from "@/components/chart-parts";
import { LatencyChart } from "@/components/usage-charts";
import { LATENCY_RELATIVE_ERROR } from "@/core/latency-histogram";
import type { KeyLatencyDto } from "@/lib/usage/report";
import { DailyRequestsChart, StatusCodesChart } from "./key-usage-charts";

const number = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
// A single call among thousands is not "0%".
const share = (fraction: number) => (fraction > 0 && fraction < 0.001 ? "<0.1%" : percent.format(fraction));

export function UsageSummary({ usage }: { usage: KeyUsageDto }) {
  const ofTotal = (count: number) => `${share(count / usage.total)} of requests`;
  const tiles = [
    { label: "Total requests", value: usage.total, note: "Last 30 days" },
    { label: "Successful (2xx)", value: usage.byClass["2xx"], note: ofTotal(usage.byClass["2xx"]) },
    { label: "Client errors (4xx)", value: usage.byClass["4xx"], note: ofTotal(usage.byClass["4xx"]) },
    { label: "Server errors (5xx)", value: usage.byClass["5xx"], note: ofTotal(usage.byClass["5xx"]) },
  ];
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map((tile) => (
        <Card key={tile.label} className="gap-1 px-4 py-4 sm:px-6">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{tile.label}</p>
          <p className="text-2xl font-semibold tabular-nums">{number.format(tile.value)}</p>
          <p className="text-xs text-muted-foreground">{tile.note}</p>
        </Card>
      ))}
    </div>
  );
}

export function DailyRequests({ usage }: { usage: KeyUsageDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Daily requests</CardTitle>
        <CardDescription>All 30 days, stacked by status class. Days without requests stay empty.</CardDescription>
      </CardHeader>
      <CardContent>
        <DailyRequestsChart daily={usage.daily} />
      </CardContent>
    </Card>
  );
}

export function DailyLatency({ latency }: { latency: KeyLatencyDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Latency</CardTitle>
        <CardDescription>p50, p95 and p99 per day, within {LATENCY_RELATIVE_ERROR * 100} % of the exact values.</CardDescription>
      </CardHeader>
      <CardContent>
        <LatencyChart points={latency.daily} grain="day" />
      </CardContent>
    </Card>
  );
}

export function StatusCodes({ usage }: { usage: KeyUsageDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Status codes</CardTitle>
        <CardDescription>How the API answered this key.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2 md:items-start">
        <StatusCodesChart statuses={usage.statuses} />
        <Table aria-label="Requests per status code" containerClassName="min-w-0">
          <TableHeader>
            <TableRow>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead className="text-right">Share</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {usage.statuses.map((row) => (
              <TableRow key={row.status}>
                <TableCell>
                  <StatusCodeBadge status={row.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{number.format(row.count)}</TableCell>
                <TableCell className="text-right tabular-nums text-muted-foreground">{share(row.share)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

const latencyOf = (ms: number | null | undefined) => (ms === null || ms === undefined ? "—" : formatMs(ms));

export function TopEndpoints({ usage, latency }: { usage: KeyUsageDto; latency: KeyLatencyDto["endpoints"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Most accessed endpoints</CardTitle>
        <CardDescription>Grouped by route template, so every invoice id counts as one endpoint; latency over the same 30 days.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table aria-label="Most accessed endpoints">
          <TableHeader>
            <TableRow>
              <TableHead>Endpoint</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead className="text-right sm:w-40">Share</TableHead>
              <TableHead className="hidden text-right md:table-cell">p50</TableHead>
              <TableHead className="text-right">p95</TableHead>
              <TableHead className="hidden text-right md:table-cell">p99</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {usage.endpoints.map((row) => (
              <TableRow key={row.endpoint}>
                <TableCell className="whitespace-normal">
                  <span className="flex items-baseline gap-2">
                    <MethodLabel method={row.method} className="w-12 shrink-0" />
                    <span className="min-w-0 break-all font-mono text-xs">{row.route}</span>
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{number.format(row.count)}</TableCell>
                <TableCell>
                  <span className="flex items-center justify-end gap-2">
                    <span className="hidden h-1.5 w-20 overflow-hidden rounded-full bg-muted sm:block" aria-hidden>
                      <span className="block h-full rounded-full bg-primary/70" style={{ width: `${Math.max(2, row.share * 100)}%` }} />
                    </span>
                    <span className="w-12 text-right tabular-nums text-muted-foreground">{share(row.share)}</span>
                  </span>
                </TableCell>
                <TableCell className="hidden text-right tabular-nums md:table-cell">{latencyOf(latency[row.endpoint]?.p50Ms)}</TableCell>
                <TableCell className="text-right tabular-nums">{latencyOf(latency[row.endpoint]?.p95Ms)}</TableCell>
                <TableCell className="hidden text-right tabular-nums md:table-cell">{latencyOf(latency[row.endpoint]?.p99Ms)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** The key's last calls; with `orgSlug` (a viewer who may open them), each path links to its request's details. */
export function RecentCalls({
  calls,
  auditHref,
  orgSlug,
  mode,
}: {
  calls: RecentCallDto[];
  auditHref: string | null;
  orgSlug: string | null;
  /** The key's, and so its calls'. */
  mode: Mode;
}) {
  const href = (call: RecentCallDto) => (orgSlug ? requestHref(orgSlug, call.requestId, mode) : undefined);
  return (
    <Card className="gap-0 overflow-hidden pb-0">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2 pb-4">
        <div className="space-y-1.5">
          <CardTitle className="text-base">Last {calls.length} calls</CardTitle>
          <CardDescription>Newest first, straight from the request log. Times are UTC.</CardDescription>
        </div>
        {auditHref ? (
          <Link href={auditHref} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            All calls in the audit log <ArrowRight className="size-4" aria-hidden />
          </Link>
        ) : null}
      </CardHeader>
      <RequestRows label="Last calls" rows={calls} href={href} />
    </Card>
  );
}
