"use client";

import { useState, type ReactElement, type ReactNode } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";

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

/** The end of a dialog's form: Cancel, and the submit button, both held while the action runs. */
export function FormDialogFooter({
  label,
  pendingLabel,
  pending,
  disabled = false,
  variant = "default",
}: {
  label: string;
  pendingLabel: string;
  pending: boolean;
  /** The form cannot be sent as it stands (nothing typed, nothing changed). */
  disabled?: boolean;
  variant?: Extract<ButtonVariant, "default" | "destructive">;
}) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button type="button" variant="outline" disabled={pending}>
          Cancel
        </Button>
      </DialogClose>
      <Button type="submit" variant={variant} disabled={pending || disabled}>
        {pending ? pendingLabel : label}
      </Button>
    </DialogFooter>
  );
}
