"use client";

import type { ReactNode } from "react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction, type ConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button, type ButtonSize } from "@/components/ui/button";

/**
 * A red-outlined button that deletes or removes something once the person confirms what it
 * ends: the dialog says so, runs `action` with `input`, keeps a refusal on screen, and hands a
 * success to `onRemoved` (a toast, a way back).
 */
export function RemovalDialog<I, T>({
  action,
  input,
  onRemoved,
  trigger,
  title,
  description,
  confirmLabel,
  pendingLabel,
}: {
  action: ConfirmAction<I, T>;
  input: I;
  onRemoved: (data: T) => void;
  /** The button: its icon and text, an accessible name naming what it removes where a page has several, its size. */
  trigger: { icon: ReactNode; label: string; ariaLabel?: string; size?: ButtonSize };
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
}) {
  const remove = useConfirmAction(action, { onSuccess: onRemoved });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size={trigger.size} className="text-destructive hover:text-destructive" aria-label={trigger.ariaLabel}>
          {trigger.icon} {trigger.label}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter label={confirmLabel} pendingLabel={pendingLabel} pending={remove.pending} error={remove.error} onConfirm={() => remove.run(input)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}
