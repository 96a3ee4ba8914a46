import { Download, ShieldAlert } from "lucide-react";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { EmptyState } from "@/components/empty-state";
import { FormAlert } from "@/components/form-alert";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export type LogPageState = { kind: "refused"; status: 401 | 403 | 404; message: string } | { kind: "invalid"; message: string } | { kind: "ok" };

/**
 * The frame both logs share (audit log, activity history): who may read it, the header with the
 * CSV export when there is something to export, the filters, and either the results or why the
 * URL's filters were refused. A guest is told who can read it; a stranger gets a 404.
 */
export function LogPage({
  orgSlug,
  title,
  description,
  base,
  state,
  guest,
  exportHref,
  filters,
  children,
}: {
  orgSlug: string;
  title: string;
  description: string;
  base: string;
  state: LogPageState;
  guest: { title: string; description: string };
  exportHref: string | null;
  filters: ReactNode;
  children: ReactNode;
}) {
  if (state.kind === "refused") {
    if (state.status === 401) redirect("/signin");
    if (state.status !== 403) notFound();
    return (
      <div className="space-y-6">
        <PageHeader title={title} description={description} />
        <Card>
          <EmptyState icon={<ShieldAlert className="size-6" aria-hidden />} title={guest.title} description={guest.description}>
            <Button variant="outline" asChild>
              <Link href={`/${orgSlug}/settings/api`}>Go to API keys</Link>
            </Button>
          </EmptyState>
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description={description}
        actions={
          exportHref ? (
            <Button variant="outline" asChild>
              <a href={exportHref} download>
                <Download className="size-4" aria-hidden /> Export CSV
              </a>
            </Button>
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
