"use client";

import { BadgeCheck, Trash2 } from "lucide-react";
import { FormAlert } from "@/components/form-alert";
import { RemovalDialog } from "@/components/removal-dialog";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
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
  return (
    <RemovalDialog
      action={removeSsoDomainAction}
      input={input}
      onRemoved={() => toast.success("Domain removed", { description: name })}
      trigger={{ icon: <Trash2 className="size-4" aria-hidden />, label: "Remove", ariaLabel: `Remove ${name}`, size: "sm" }}
      title={`Remove the domain ${name}?`}
      description={
        verified
          ? "It stops being this organization's: another organization could then verify it. Adding it again needs a new TXT record."
          : "Its TXT record, if you published it, proves nothing any more; you can delete it from your DNS."
      }
      confirmLabel="Remove domain"
      pendingLabel="Removing…"
    />
  );
}
