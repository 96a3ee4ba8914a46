import type { Metadata } from "next";
import Link from "next/link";
import type { AuditLogPageDto, AuditLogRowDto } from "@/db/queries/audit-log";
import { NoRequests } from "@/components/no-requests";
import { LogPage, LogResults, NoLogMatches } from "@/components/log-page";
import { RequestCells, RequestListItem, RequestTime } from "@/components/request-format";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { activitySearchParams } from "@/lib/activity-filters";
import { auditSearchParams, hasFilters, type AuditFilters } from "@/lib/audit-filters";
import { publicBaseUrl } from "@/lib/base-url";
import { AuditFiltersClient } from "./audit-filters-client";
import { loadAuditLog, type KeyEndings } from "./load-audit-log";

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
      filters={view.kind === "refused" ? null : <AuditFiltersClient filters={filters} options={view.options} keys={view.keys} />}
    >
      {view.kind === "ok" ? <Results orgSlug={orgSlug} base={base} filters={view.filters} page={view.page} endings={view.endings} /> : null}
    </LogPage>
  );
}

async function Results({ orgSlug, base, filters, page, endings }: { orgSlug: string; base: string; filters: AuditFilters; page: AuditLogPageDto; endings: KeyEndings }) {
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
  if (page.rows.length === 0 && firstPage) return <NoLogMatches noun={NOUN} />;
  return (
    <LogResults
      noun={NOUN}
      pagesLabel="Audit log pages"
      count={page.rows.length}
      newerHref={page.newer && `${base}?${auditSearchParams(filters, { after: page.newer })}`}
      olderHref={page.older && `${base}?${auditSearchParams(filters, { before: page.older })}`}
    >
      <AuditRows orgSlug={orgSlug} rows={page.rows} endings={endings} />
    </LogResults>
  );
}

function KeyName({ orgSlug, row }: { orgSlug: string; row: AuditLogRowDto }) {
  return (
    <Link href={`/${orgSlug}/settings/api/keys/${row.keyId}`} className="truncate font-medium hover:underline" title={row.keyName ?? row.keyId}>
      {row.keyName ?? "Deleted key"}
    </Link>
  );
}

/**
 * A request refused because its key had ended links to the history entry that ended it (SPEC §8);
 * other requests of a revoked key just say so.
 */
function KeyEndBadge({ orgSlug, row, endings }: { orgSlug: string; row: AuditLogRowDto; endings: KeyEndings }) {
  const ending = endings[row.keyId];
  if (row.status === 401 && ending && ending.at <= row.createdAt) {
    const href = `/${orgSlug}/settings/api/activity?${activitySearchParams({ key: row.keyId, action: ending.action })}`;
    return (
      <Badge variant="warning" className="px-1.5 py-0" asChild>
        <Link href={href}>{ending.action === "api_key.revoked" ? "Refused: key revoked" : "Refused: key expired"}</Link>
      </Badge>
    );
  }
  return row.keyRevoked ? (
    <Badge variant="secondary" className="px-1.5 py-0">
      Revoked
    </Badge>
  ) : null;
}

/** A table from 640px up; below, one compact entry per request instead of a sideways scroll. */
function AuditRows({ orgSlug, rows, endings }: { orgSlug: string; rows: AuditLogRowDto[]; endings: KeyEndings }) {
  return (
    <>
      <ul aria-label="API requests" className="divide-y sm:hidden">
        {rows.map((row) => (
          <RequestListItem key={row.id} request={row}>
            <div className="flex min-w-0 items-center gap-2 text-sm">
              <KeyName orgSlug={orgSlug} row={row} />
              <KeyEndBadge orgSlug={orgSlug} row={row} endings={endings} />
            </div>
          </RequestListItem>
        ))}
      </ul>
      <Table aria-label="API requests" containerClassName="hidden sm:block">
        <TableHeader>
          <TableRow>
            <TableHead className="pl-6">Time (UTC)</TableHead>
            <TableHead>Key</TableHead>
            <TableHead>Method</TableHead>
            <TableHead>Path</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Duration</TableHead>
            <TableHead className="pr-6">IP</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className="pl-6">
                <RequestTime iso={row.createdAt} />
              </TableCell>
              <TableCell className="max-w-60">
                <div className="flex min-w-0">
                  <KeyName orgSlug={orgSlug} row={row} />
                </div>
                <div className="flex items-center gap-1.5">
                  <code className="font-mono text-xs text-muted-foreground">{row.keyHint}</code>
                  <KeyEndBadge orgSlug={orgSlug} row={row} endings={endings} />
                </div>
              </TableCell>
              <RequestCells request={row} />
              <TableCell className="pr-6 font-mono text-xs">{row.ip ?? "—"}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
