"use client";

import { Unplug } from "lucide-react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { removeSsoConnectionAction } from "./actions";

/** Removes the provider and its secret, confirmed first. */
export function RemoveConnection({ orgId, issuer }: { orgId: string; issuer: string }) {
  const remove = useConfirmAction(removeSsoConnectionAction, { onSuccess: () => toast.success("Single sign-on provider removed", { description: issuer }) });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive">
          <Unplug className="size-4" aria-hidden /> Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove the identity provider?</AlertDialogTitle>
          <AlertDialogDescription>
            Its settings and client secret are deleted; your domains stay verified. The activity history keeps the removal.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter label="Remove provider" pendingLabel="Removing…" pending={remove.pending} error={remove.error} onConfirm={() => remove.run({ orgId })} />
      </AlertDialogContent>
    </AlertDialog>
  );
}
