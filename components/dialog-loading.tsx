import { Loader2 } from "lucide-react";
import { DialogTitle } from "@/components/ui/dialog";

/** What an opened dialog shows while its form's code is still on its way (components/on-demand.tsx). */
export function DialogLoading() {
  return (
    <div role="status" className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden />
      <DialogTitle className="text-sm font-normal">Loading…</DialogTitle>
    </div>
  );
}
