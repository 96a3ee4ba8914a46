"use client";

import { useState, type ReactElement, type ReactNode } from "react";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";

/**
 * A dialog holding one form, mounted afresh each time it opens, so it starts from the current
 * values instead of what was typed and abandoned last time. `form` gets `close` for its success.
 */
export function FormDialog({ trigger, form }: { trigger: ReactElement; form: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setOpening((n) => n + 1);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent key={opening}>{form(() => setOpen(false))}</DialogContent>
    </Dialog>
  );
}
