"use client";

import {
  createColumnHelper,
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type PaginationState,
  type SortingState,
} from "@tanstack/react-table";
import { ChevronLeft, ChevronRight, Download, ScrollText } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import type { BreakdownRowDto, UsageReportDto } from "@/lib/usage/report";
import { DataTableHeader } from "@/components/data-table-header";
import { DataTableRows } from "@/components/data-table-rows";
import { MethodLabel } from "@/components/request-format";
import { formatMs } from "@/components/chart-parts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableHeader } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { splitEndpoint } from "@/core/request-log";
import { BREAKDOWN_NAMES, BREAKDOWNS, type Breakdown } from "@/lib/usage/breakdowns";
import { auditParamsFor, usageSearchParams, type UsageFilters } from "@/lib/usage/filters";

const PAGE_SIZE = 25;

const features = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
});
const helper = createColumnHelper<typeof features, BreakdownRowDto>();

const number = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
// One request among thousands is not "0%".
const share = (fraction: number) => (fraction > 0 && fraction < 0.001 ? "<0.1%" : percent.format(fraction));
const latency = (ms: number | null) => (ms === null ? "—" : formatMs(ms));

/** What a row is, in words: the key's name, the endpoint, or both. */
const rowName = (row: BreakdownRowDto) => [row.keyId === null ? null : (row.keyName ?? "Deleted key"), row.endpoint].filter((part) => part !== null).join(" · ");

// On a phone: the row, its requests, p95 and the way to its requests; the rest waits for width.
const HIDDEN_ON_PHONE = new Set(["share", "rate4xx", "p50Ms", "p99Ms"]);
const columnClass = (columnId: string) => (HIDDEN_ON_PHONE.has(columnId) ? "hidden md:table-cell" : columnId === "name" ? "max-w-72 whitespace-normal" : "text-right tabular-nums");

function KeyCell({ orgSlug, row }: { orgSlug: string; row: BreakdownRowDto }) {
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
      {row.keyName ? (
        <Link prefetch={false} href={`/${orgSlug}/settings/api/keys/${row.keyId}`} className="font-medium break-words hover:underline">
          {row.keyName}
        </Link>
      ) : (
        <span className="font-medium text-muted-foreground">Deleted key</span>
      )}
      {row.keyHint ? <code className="font-mono text-xs text-muted-foreground">{row.keyHint}</code> : null}
      {row.keyRevoked ? (
        <Badge variant="secondary" className="px-1.5 py-0">
          Revoked
        </Badge>
      ) : null}
    </span>
  );
}

function EndpointCell({ endpoint }: { endpoint: string }) {
  const { method, route } = splitEndpoint(endpoint);
  return (
    <span className="flex items-baseline gap-2">
      <MethodLabel method={method} className="w-12 shrink-0" />
      <span className="min-w-0 font-mono text-xs break-all">{route}</span>
    </span>
  );
}

type Shown = { orgSlug: string; filters: UsageFilters; window: UsageReportDto["window"] };

function BreakdownTable({ breakdown, rows, orgSlug, filters, window }: Shown & { breakdown: Breakdown; rows: BreakdownRowDto[] }) {
  const [sorting, setSorting] = useState<SortingState>([{ id: "requests", desc: true }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: PAGE_SIZE });
  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor(rowName, {
          id: "name",
          header: BREAKDOWNS[breakdown].label.replace("By ", "").replace(/^./, (c) => c.toUpperCase()),
          sortFn: "alphanumeric",
          cell: ({ row: { original } }) => (
            <span className="flex flex-col gap-1">
              {original.keyId !== null ? <KeyCell orgSlug={orgSlug} row={original} /> : null}
              {original.endpoint !== null ? <EndpointCell endpoint={original.endpoint} /> : null}
            </span>
          ),
        }),
        helper.accessor("requests", { header: "Requests", sortFn: "basic", cell: (info) => number.format(info.getValue()) }),
        helper.accessor("share", { header: "Share", sortFn: "basic", cell: (info) => share(info.getValue()) }),
        helper.accessor("rate4xx", { header: "4xx", sortFn: "basic", cell: (info) => share(info.getValue()) }),
        helper.accessor("rate5xx", { header: "5xx", sortFn: "basic", cell: (info) => share(info.getValue()) }),
        helper.accessor("p50Ms", { header: "p50", sortFn: "basic", sortUndefined: "last", cell: (info) => latency(info.getValue()) }),
        helper.accessor("p95Ms", { header: "p95", sortFn: "basic", sortUndefined: "last", cell: (info) => latency(info.getValue()) }),
        helper.accessor("p99Ms", { header: "p99", sortFn: "basic", sortUndefined: "last", cell: (info) => latency(info.getValue()) }),
        helper.display({
          id: "audit",
          header: () => <span className="sr-only">Requests</span>,
          cell: ({ row: { original } }) => (
            <Button variant="ghost" size="icon" className="size-8" asChild>
              <Link href={`/${orgSlug}/settings/api/audit?${auditParamsFor(filters, window, original)}`} aria-label={`Requests of ${rowName(original)} in the audit log`} title="Open these requests in the audit log">
                <ScrollText className="size-4" aria-hidden />
              </Link>
            </Button>
          ),
        }),
      ]),
    [breakdown, orgSlug, filters, window],
  );
  const table = useTable({ features, columns, data: rows, state: { sorting, pagination }, onSortingChange: setSorting, onPaginationChange: setPagination }, (state) => state);
  const pages = table.getPageCount();
  return (
    <>
      <Table aria-label={`Usage ${BREAKDOWNS[breakdown].label.toLowerCase()}`}>
        <TableHeader>
          <DataTableHeader groups={table.getHeaderGroups()} columnClass={columnClass} />
        </TableHeader>
        <TableBody>
          <DataTableRows rows={table.getRowModel().rows} columnClass={columnClass} />
        </TableBody>
      </Table>
      {pages > 1 ? (
        <nav aria-label={`Pages of ${BREAKDOWNS[breakdown].label.toLowerCase()}`} className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm text-muted-foreground">
          <span>
            Rows {number.format(pagination.pageIndex * PAGE_SIZE + 1)}–{number.format(Math.min(rows.length, (pagination.pageIndex + 1) * PAGE_SIZE))} of {number.format(rows.length)}
          </span>
          <span className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
              <ChevronLeft className="size-4" aria-hidden /> Previous
            </Button>
            <Button variant="outline" size="sm" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
              Next <ChevronRight className="size-4" aria-hidden />
            </Button>
          </span>
        </nav>
      ) : null}
    </>
  );
}

/**
 * The breakdowns by key, by endpoint and by key × endpoint, one tab each: sortable, a page of
 * 25 rows at a time, each row a link to its requests in the audit log, each table a CSV.
 */
export function UsageTablesClient({ breakdowns, orgSlug, filters, window }: Shown & { breakdowns: Record<Breakdown, BreakdownRowDto[]> }) {
  const [current, setCurrent] = useState<Breakdown>("key");
  const exportParams = usageSearchParams(filters);
  exportParams.set("table", current);
  return (
    <Card className="gap-0 overflow-hidden py-0">
      <Tabs value={current} onValueChange={(value) => setCurrent(value as Breakdown)} className="gap-0">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3">
          <TabsList aria-label="Breakdown">
            {BREAKDOWN_NAMES.map((name) => (
              <TabsTrigger key={name} value={name}>
                {BREAKDOWNS[name].label}
              </TabsTrigger>
            ))}
          </TabsList>
          <Button variant="outline" size="sm" asChild>
            <a href={`/${orgSlug}/settings/api/usage/export?${exportParams}`} download>
              <Download className="size-4" aria-hidden /> Download CSV
            </a>
          </Button>
        </div>
        {BREAKDOWN_NAMES.map((name) => (
          <TabsContent key={name} value={name}>
            <BreakdownTable breakdown={name} rows={breakdowns[name]} orgSlug={orgSlug} filters={filters} window={window} />
          </TabsContent>
        ))}
      </Tabs>
    </Card>
  );
}
