"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { setTwoFactorRequirementAction } from "./actions";

/** The button that turns the requirement on or off, after a confirmation saying whom it affects. */
export function TwoFactorRequirementSwitch({
  orgId,
  orgName,
  required,
  without,
  blocked,
}: {
  orgId: string;
  orgName: string;
  required: boolean;
  /** Members without a second factor. */
  without: number;
  /** The viewer has none themselves, so requiring it would lock them out. */
  blocked: boolean;
}) {
  const [open, setOpen] = useState(false);
  const change = useConfirmAction(setTwoFactorRequirementAction, {
    onSuccess: ({ required: now }) => {
      setOpen(false);
      toast.success(now ? "Two-factor is now required for everyone" : "Two-factor is no longer required");
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
        <Button variant={required ? "outline" : "default"} disabled={blocked}>
          {required ? "Stop requiring two-factor…" : "Require two-factor for everyone…"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{required ? "Stop requiring two-factor?" : `Require two-factor for everyone in ${orgName}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {required
              ? "Members may then sign in and work here with a password alone."
              : without === 0
                ? "Every member already has it. New members will have to set it up before they reach anything here."
                : `${without} ${without === 1 ? "member does" : "members do"} not have it yet. From their next page load, they are taken to set it up and reach nothing of ${orgName} until they have.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter
          label={required ? "Stop requiring" : "Require two-factor"}
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
