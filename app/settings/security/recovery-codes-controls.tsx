"use client";

import { useState } from "react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import { renewRecoveryCodesAction } from "./actions";
import { RecoveryCodesShownOnce } from "./recovery-codes-shown-once";

/** "Renew codes…", confirmed, then the new codes shown once. */
export function RecoveryCodesControls({ left }: { left: number }) {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const renew = useConfirmAction(renewRecoveryCodesAction, {
    onSuccess: (data) => {
      setOpen(false);
      setCodes(data.recoveryCodes);
    },
  });
  if (codes) return <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="New recovery codes saved" />;
  return (
    <CardFooter className="border-t">
      <AlertDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          renew.clearError();
        }}
      >
        <AlertDialogTrigger asChild>
          <Button variant="outline">Renew codes…</Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Renew your recovery codes?</AlertDialogTitle>
            <AlertDialogDescription>Your {left} unused codes stop working at once. You get ten new ones, shown once.</AlertDialogDescription>
          </AlertDialogHeader>
          <ConfirmFooter
            label="Renew codes"
            pendingLabel="Renewing…"
            pending={renew.pending}
            error={renew.error}
            variant="default"
            onConfirm={() => renew.run({})}
          />
        </AlertDialogContent>
      </AlertDialog>
    </CardFooter>
  );
}
