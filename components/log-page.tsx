import { Download, SearchX } from "lucide-react";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { EmptyState } from "@/components/empty-state";
import { FormAlert } from "@/components/form-alert";
import { KeysetNav } from "@/components/keyset-nav";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export type LogPageState = { kind: "refused"; status: 401 | 403 | 404; message: string } | { kind: "invalid"; message: string } | { kind: "ok" };

/**
 * The frame both logs share (audit log, activity history): the header with the CSV export when
 * there is something to export, the filters, and either the results or why the URL's filters were
 * refused. Whoever may not read the log (a guest, a stranger) gets a 404.
 */
export function LogPage({
  title,
  description,
  base,
  state,
  exportHref,
  search,
  filters,
  children,
}: {
  title: string;
  description: string;
  base: string;
  state: LogPageState;
  exportHref: string | null;
  /** Beside the export: the audit log's "find a request by ID". */
  search?: ReactNode;
  filters: ReactNode;
  children: ReactNode;
}) {
  // The segment's layout refuses first (lib/org-access.ts, layoutRequiring), before loading.tsx
  // streams; this stays for the types and for a membership that changed in between.
  if (state.kind === "refused") {
    if (state.status === 401) redirect("/signin");
    notFound();
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description={description}
        actions={
          search || exportHref ? (
            <>
              {search}
              {exportHref ? (
                <Button variant="outline" asChild>
                  <a href={exportHref} download>
                    <Download className="size-4" aria-hidden /> Export CSV
                  </a>
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      {filters}
      {state.kind === "invalid" ? (
        <FormAlert>
          This link&apos;s filters are not valid: {state.message}{" "}
          <Link href={base} className="font-medium underline">
            Clear the filters
          </Link>
        </FormAlert>
      ) : (
        children
      )}
    </div>
  );
}

/** A log's name for its rows, one and many: ["request", "requests"]. */
type Noun = [string, string];

/** The first page of filters nothing matches: the way out is to widen them. */
export function NoLogMatches({ noun }: { noun: Noun }) {
  return (
    <Card>
      <NoLogMatchesState noun={noun} />
    </Card>
  );
}

/** The same without its card, inside one of the page's own. */
export function NoLogMatchesState({ noun: [, many] }: { noun: Noun }) {
  return (
    <EmptyState
      icon={<SearchX className="size-6" aria-hidden />}
      title={`No ${many} match these filters`}
      description={`Widen the date range or remove a filter to see more ${many}.`}
    />
  );
}

/**
 * A page of a log: its rows in a card (or, past either end, the way back), then the links to
 * newer and older pages.
 */
export function LogResults({
  noun,
  pagesLabel,
  count,
  newerHref,
  olderHref,
  children,
}: {
  noun: Noun;
  pagesLabel: string;
  count: number;
  newerHref: string | null;
  olderHref: string | null;
  children: ReactNode;
}) {
  return (
    <div className="space-y-3">
      <Card className="gap-0 overflow-hidden py-0">
        {count > 0 ? (
          children
        ) : (
          <p className="px-6 py-10 text-center text-sm text-muted-foreground">
            No more {noun[1]} this way. Go back to newer or older {noun[1]} below.
          </p>
        )}
      </Card>
      <KeysetNav label={pagesLabel} count={count} noun={noun} newerHref={newerHref} olderHref={olderHref} />
    </div>
  );
}
