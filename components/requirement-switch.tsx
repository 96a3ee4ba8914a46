"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction, type ConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

/** The words of one side of a switch: its button, the question, what it does, the confirmation and the toast. */
export interface RequirementWords {
  button: string;
  title: string;
  description: string;
  confirm: string;
  done: string;
}

/**
 * An organization-wide requirement (two-factor, single sign-on) turned on or off after a
 * confirmation saying whom it affects: `on` is said while it is off, `off` while it is on.
 */
export function RequirementSwitch({
  orgId,
  required,
  disabled = false,
  action,
  on,
  off,
}: {
  orgId: string;
  required: boolean;
  disabled?: boolean;
  action: ConfirmAction<{ orgId: string; required: "on" | "off" }, { required: boolean }>;
  on: RequirementWords;
  off: RequirementWords;
}) {
  const [open, setOpen] = useState(false);
  const words = required ? off : on;
  const change = useConfirmAction(action, {
    onSuccess: ({ required: now }) => {
      setOpen(false);
      toast.success(now ? on.done : off.done);
    },
  });
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        change.clearError();
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant={required ? "outline" : "default"} disabled={disabled}>
          {words.button}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{words.title}</AlertDialogTitle>
          <AlertDialogDescription>{words.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter
          label={words.confirm}
          pendingLabel="Saving…"
          pending={change.pending}
          error={change.error}
          variant={required ? "destructive" : "default"}
          onConfirm={() => change.run({ orgId, required: required ? "off" : "on" })}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
