import type { ReactNode } from "react";

/** One term and its value in a `<dl>` of facts: a small uppercase label over the value, which wraps however long. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}
