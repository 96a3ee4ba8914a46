"use client";

import { BadgeCheck, Trash2 } from "lucide-react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { FormAlert } from "@/components/form-alert";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { removeSsoDomainAction, verifySsoDomainAction } from "./actions";

type Domain = { id: string; name: string; verified: boolean };

/** A domain's actions: Verify while it is pending, saying what the lookup found when it does not prove it; Remove, confirmed first. */
export function DomainControls({ orgId, domain }: { orgId: string; domain: Domain }) {
  const input = { orgId, domainId: domain.id };
  const verify = useConfirmAction(verifySsoDomainAction, { onSuccess: () => toast.success("Domain verified", { description: domain.name }) });
  return (
    <div className="space-y-3">
      {verify.error ? <FormAlert>{verify.error}</FormAlert> : null}
      <div className="flex flex-wrap gap-2">
        {domain.verified ? null : (
          <Button size="sm" disabled={verify.pending} onClick={() => verify.run(input)} aria-label={`Verify ${domain.name}`}>
            <BadgeCheck className="size-4" aria-hidden /> {verify.pending ? "Looking up…" : "Verify"}
          </Button>
        )}
        <RemoveDomain input={input} name={domain.name} verified={domain.verified} />
      </div>
    </div>
  );
}

function RemoveDomain({ input, name, verified }: { input: { orgId: string; domainId: string }; name: string; verified: boolean }) {
  const remove = useConfirmAction(removeSsoDomainAction, { onSuccess: () => toast.success("Domain removed", { description: name }) });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Remove ${name}`}>
          <Trash2 className="size-4" aria-hidden /> Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove the domain {name}?</AlertDialogTitle>
          <AlertDialogDescription>
            {verified
              ? "It stops being this organization's: another organization could then verify it. Adding it again needs a new TXT record."
              : "Its TXT record, if you published it, proves nothing any more; you can delete it from your DNS."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter label="Remove domain" pendingLabel="Removing…" pending={remove.pending} error={remove.error} onConfirm={() => remove.run(input)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}
