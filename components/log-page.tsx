import { Download } from "lucide-react";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { FormAlert } from "@/components/form-alert";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";

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
  filters,
  children,
}: {
  title: string;
  description: string;
  base: string;
  state: LogPageState;
  exportHref: string | null;
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
