import { ChevronLeft, ChevronRight, Download, SearchX, ShieldAlert } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { AuditLogPageDto, AuditLogRowDto } from "@/db/queries/audit-log";
import { EmptyState } from "@/components/empty-state";
import { FormAlert } from "@/components/form-alert";
import { NoRequests } from "@/components/no-requests";
import { PageHeader } from "@/components/page-header";
import { RequestCells, RequestListItem, RequestTime } from "@/components/request-format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { auditSearchParams, hasFilters, type AuditFilters } from "@/lib/audit-filters";
import { publicBaseUrl } from "@/lib/base-url";
import { AuditFiltersClient } from "./audit-filters-client";
import { loadAuditLog } from "./load-audit-log";

export const metadata: Metadata = { title: "Audit log" };

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

  if (view.kind === "refused") {
    if (view.status === 401) redirect("/signin");
    if (view.status !== 403) notFound();
    return (
      <div className="space-y-6">
        <PageHeader title="Audit log" description={DESCRIPTION} />
        <Card>
          <EmptyState
            icon={<ShieldAlert className="size-6" aria-hidden />}
            title="Guests can't view the audit log"
            description="Owners, admins and members can view and export every API request. Ask an owner of this organization if you need access. You can still see each key's 30-day usage on the API keys page."
          >
            <Button variant="outline" asChild>
              <Link href={`/${orgSlug}/settings/api`}>Go to API keys</Link>
            </Button>
          </EmptyState>
        </Card>
      </div>
    );
  }

  const filters = view.kind === "ok" ? view.filters : {};
  const exportHref = `${base}/export?${auditSearchParams(filters)}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description={DESCRIPTION}
        actions={
          view.kind === "ok" && view.page.rows.length > 0 ? (
            <Button variant="outline" asChild>
              <a href={exportHref} download>
                <Download className="size-4" aria-hidden /> Export CSV
              </a>
            </Button>
          ) : null
        }
      />
      <AuditFiltersClient filters={filters} options={view.options} keys={view.keys} />
      {view.kind === "invalid" ? (
        <FormAlert>
          This link&apos;s filters are not valid: {view.message}{" "}
          <Link href={base} className="font-medium underline">
            Clear the filters
          </Link>
        </FormAlert>
      ) : (
        <Results orgSlug={orgSlug} base={base} filters={view.filters} page={view.page} />
      )}
    </div>
  );
}

async function Results({ orgSlug, base, filters, page }: { orgSlug: string; base: string; filters: AuditFilters; page: AuditLogPageDto }) {
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
  if (page.rows.length === 0 && firstPage) {
    return (
      <Card>
        <EmptyState
          icon={<SearchX className="size-6" aria-hidden />}
          title="No requests match these filters"
          description="Widen the date range or remove a filter to see more requests."
        />
      </Card>
    );
  }
  return (
    <div className="space-y-3">
      <Card className="gap-0 overflow-hidden py-0">
        {page.rows.length > 0 ? (
          <AuditRows orgSlug={orgSlug} rows={page.rows} />
        ) : (
          <p className="px-6 py-10 text-center text-sm text-muted-foreground">No more requests this way. Go back to newer or older requests below.</p>
        )}
      </Card>
      <nav aria-label="Audit log pages" className="flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {page.rows.length} {page.rows.length === 1 ? "request" : "requests"} on this page
        </p>
        <div className="flex gap-2">
          <PageLink href={page.newer && `${base}?${auditSearchParams(filters, { after: page.newer })}`} label="Newer" icon="previous" />
          <PageLink href={page.older && `${base}?${auditSearchParams(filters, { before: page.older })}`} label="Older" icon="next" />
        </div>
      </nav>
    </div>
  );
}

function PageLink({ href, label, icon }: { href: string | null; label: string; icon: "previous" | "next" }) {
  const content = (
    <>
      {icon === "previous" ? <ChevronLeft className="size-4" aria-hidden /> : null}
      {label}
      {icon === "next" ? <ChevronRight className="size-4" aria-hidden /> : null}
    </>
  );
  if (!href) {
    return (
      <Button variant="outline" size="sm" disabled>
        {content}
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" asChild>
      <Link href={href}>{content}</Link>
    </Button>
  );
}

function KeyName({ orgSlug, row }: { orgSlug: string; row: AuditLogRowDto }) {
  return (
    <Link href={`/${orgSlug}/settings/api/keys/${row.keyId}`} className="truncate font-medium hover:underline" title={row.keyName ?? row.keyId}>
      {row.keyName ?? "Deleted key"}
    </Link>
  );
}

function RevokedBadge({ row }: { row: AuditLogRowDto }) {
  return row.keyRevoked ? (
    <Badge variant="secondary" className="px-1.5 py-0">
      Revoked
    </Badge>
  ) : null;
}

/** A table from 640px up; below, one compact entry per request instead of a sideways scroll. */
function AuditRows({ orgSlug, rows }: { orgSlug: string; rows: AuditLogRowDto[] }) {
  return (
    <>
      <ul aria-label="API requests" className="divide-y sm:hidden">
        {rows.map((row) => (
          <RequestListItem key={row.id} request={row}>
            <div className="flex min-w-0 items-center gap-2 text-sm">
              <KeyName orgSlug={orgSlug} row={row} />
              <RevokedBadge row={row} />
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
                  <RevokedBadge row={row} />
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
