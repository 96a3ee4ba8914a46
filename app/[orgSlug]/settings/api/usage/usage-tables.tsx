import { ArrowDown, ArrowUp, ArrowUpDown, ScrollText } from "lucide-react";
import Link from "next/link";
import type { BreakdownRowDto, UsageReportDto } from "@/lib/usage/report";
import { PageLink } from "@/components/keyset-nav";
import { MethodLabel } from "@/components/request-format";
import { formatMs } from "@/components/chart-parts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { TabsContent } from "@/components/ui/tabs";
import { splitEndpoint } from "@/core/request-log";
import { BREAKDOWN_NAMES, BREAKDOWNS, type Breakdown } from "@/lib/usage/breakdowns";
import { auditParamsFor, usageSearchParams, type UsageFilters } from "@/lib/usage/filters";
import {
  BREAKDOWN_PAGE_SIZE,
  DEFAULT_TABLE_VIEW,
  firstOrder,
  pageOfRows,
  rowName,
  tableViewParams,
  type SortColumn,
  type TableView,
} from "@/lib/usage/table-view";
import { SortButton } from "./sort-button";
import { UsageTabsClient } from "./usage-tabs-client";

const number = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
// One request among thousands is not "0%".
const share = (fraction: number) => (fraction > 0 && fraction < 0.001 ? "<0.1%" : percent.format(fraction));
const latency = (ms: number | null) => (ms === null ? "—" : formatMs(ms));

const COLUMNS: { id: SortColumn; header: string; cell: (row: BreakdownRowDto) => string }[] = [
  { id: "requests", header: "Requests", cell: (row) => number.format(row.requests) },
  { id: "share", header: "Share", cell: (row) => share(row.share) },
  { id: "rate4xx", header: "4xx", cell: (row) => share(row.rate4xx) },
  { id: "rate5xx", header: "5xx", cell: (row) => share(row.rate5xx) },
  { id: "p50Ms", header: "p50", cell: (row) => latency(row.p50Ms) },
  { id: "p95Ms", header: "p95", cell: (row) => latency(row.p95Ms) },
  { id: "p99Ms", header: "p99", cell: (row) => latency(row.p99Ms) },
];

// On a phone: the row, its requests, p95 and the way to its requests; the rest waits for width.
const HIDDEN_ON_PHONE = new Set<string>(["share", "rate4xx", "p50Ms", "p99Ms"]);
const columnClass = (columnId: string) =>
  HIDDEN_ON_PHONE.has(columnId) ? "hidden md:table-cell" : columnId === "name" ? "max-w-72 whitespace-normal" : "text-right tabular-nums";

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

function SortIcon({ direction }: { direction: false | "asc" | "desc" }) {
  if (direction === "asc") return <ArrowUp className="size-3.5" aria-hidden />;
  if (direction === "desc") return <ArrowDown className="size-3.5" aria-hidden />;
  return <ArrowUpDown className="size-3.5 opacity-40" aria-hidden />;
}

type Shown = { orgSlug: string; filters: UsageFilters; window: UsageReportDto["window"] };

/** One breakdown, sorted and cut to a page on the server; its column titles and pages are links to the page's URL with that view. */
function BreakdownTable({ breakdown, rows, view, orgSlug, filters, window }: Shown & { breakdown: Breakdown; rows: BreakdownRowDto[]; view: TableView }) {
  const ownView = view.table === breakdown ? view : { ...DEFAULT_TABLE_VIEW, table: breakdown };
  const shown = pageOfRows(rows, ownView.sort, ownView.order, ownView.page);
  const hrefOf = (next: Partial<TableView>) => {
    const params = usageSearchParams(filters);
    for (const [name, value] of tableViewParams({ ...ownView, ...next })) params.set(name, value);
    return `/${orgSlug}/settings/api/usage?${params}`;
  };
  const sortHead = (id: SortColumn, header: string) => {
    const direction = ownView.sort === id && ownView.order;
    const order = direction ? (direction === "asc" ? "desc" : "asc") : firstOrder(id);
    return (
      <TableHead key={id} className={columnClass(id)} aria-sort={direction === "asc" ? "ascending" : direction === "desc" ? "descending" : undefined}>
        <SortButton href={hrefOf({ sort: id, order, page: 1 })}>
          {header}
          <SortIcon direction={direction} />
        </SortButton>
      </TableHead>
    );
  };
  const name = BREAKDOWNS[breakdown].label.toLowerCase();
  return (
    <>
      <Table aria-label={`Usage ${name}`}>
        <TableHeader>
          <TableRow>
            {sortHead(
              "name",
              BREAKDOWNS[breakdown].label.replace("By ", "").replace(/^./, (c) => c.toUpperCase()),
            )}
            {COLUMNS.map((column) => sortHead(column.id, column.header))}
            <TableHead>
              <span className="sr-only">Requests</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {shown.rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className={columnClass("name")}>
                <span className="flex flex-col gap-1">
                  {row.keyId !== null ? <KeyCell orgSlug={orgSlug} row={row} /> : null}
                  {row.endpoint !== null ? <EndpointCell endpoint={row.endpoint} /> : null}
                </span>
              </TableCell>
              {COLUMNS.map((column) => (
                <TableCell key={column.id} className={columnClass(column.id)}>
                  {column.cell(row)}
                </TableCell>
              ))}
              <TableCell>
                <Button variant="ghost" size="icon" className="size-8" asChild>
                  <Link
                    href={`/${orgSlug}/settings/api/audit?${auditParamsFor(filters, window, row)}`}
                    aria-label={`Requests of ${rowName(row)} in the audit log`}
                    title="Open these requests in the audit log"
                  >
                    <ScrollText className="size-4" aria-hidden />
                  </Link>
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {shown.pages > 1 ? (
        <nav aria-label={`Pages of ${name}`} className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm text-muted-foreground">
          <span>
            Rows {number.format((shown.page - 1) * BREAKDOWN_PAGE_SIZE + 1)}–{number.format(Math.min(rows.length, shown.page * BREAKDOWN_PAGE_SIZE))} of{" "}
            {number.format(rows.length)}
          </span>
          <span className="flex gap-2">
            <PageLink href={shown.page > 1 ? hrefOf({ page: shown.page - 1 }) : null} label="Previous" icon="previous" scroll={false} />
            <PageLink href={shown.page < shown.pages ? hrefOf({ page: shown.page + 1 }) : null} label="Next" icon="next" scroll={false} />
          </span>
        </nav>
      ) : null}
    </>
  );
}

/**
 * The breakdowns by key, by endpoint and by key × endpoint, one tab each: sortable, a page of
 * 25 rows at a time, each row a link to its requests in the audit log, each table a CSV. Drawn on
 * the server; the order and the page are in the URL (lib/usage/table-view.ts).
 */
export function UsageTables({ breakdowns, view, orgSlug, filters, window }: Shown & { breakdowns: Record<Breakdown, BreakdownRowDto[]>; view: TableView }) {
  return (
    <Card className="gap-0 overflow-hidden py-0">
      <UsageTabsClient initial={view.table} exportPath={`/${orgSlug}/settings/api/usage/export`} exportQuery={usageSearchParams(filters).toString()}>
        {BREAKDOWN_NAMES.map((name) => (
          <TabsContent key={name} value={name}>
            <BreakdownTable breakdown={name} rows={breakdowns[name]} view={view} orgSlug={orgSlug} filters={filters} window={window} />
          </TabsContent>
        ))}
      </UsageTabsClient>
    </Card>
  );
}
