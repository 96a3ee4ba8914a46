"use client";

import { useEffect, type ReactNode } from "react";
import type { LazyModule } from "@/components/lazy-module";
import { DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * A dialog's form from a module fetched when the dialog opens, if hovering or focusing its trigger
 * has not fetched it already (docs/decisions/0064-charts-load-when-seen.md). Until it is here the
 * dialog shows its title over a placeholder.
 */
export function LazyDialogForm<M>({ forms, title, children }: { forms: LazyModule<M>; title: string; children: (module: M) => ReactNode }) {
  const loaded = forms.useLoaded();
  useEffect(() => forms.load(), [forms]);
  if (loaded) return children(loaded);
  return (
    <div className="grid gap-4" aria-busy="true">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
      </DialogHeader>
      <Skeleton className="h-32 w-full" />
    </div>
  );
}
