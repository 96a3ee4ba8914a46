"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { FormAlert } from "@/components/form-alert";
import { LastUse } from "@/components/last-use";
import type { RevealedKey } from "@/components/one-time-key-dialog";
import { useActionForm } from "@/components/use-action-form";
import { FormDialogFooter } from "@/components/form-dialog";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { ROLL_OVERLAPS, type RollOverlap } from "@/lib/keys/roll";
import { rollApiKeyAction } from "./actions";

export type RollableKey = Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">;

/** The roll dialog's form, fetched when the dialog is about to open (roll-key-dialog.tsx). */
export function RollForm({
  orgId,
  apiKey,
  policyLifetime,
  onRolled,
}: {
  orgId: string;
  apiKey: RollableKey;
  policyLifetime: string | null;
  onRolled: (key: RevealedKey, oldKeyEndsAt: string) => void;
}) {
  const [overlap, setOverlap] = useState<RollOverlap>("24h");
  const { pending, onSubmit, error, fieldErrors } = useActionForm(rollApiKeyAction, (data) => {
    onRolled({ name: data.key.name, mode: data.key.mode, value: data.value, expiresAt: data.key.expiresAt }, data.oldKey.endsAt);
    toast.success(`Rolled “${data.key.name}”`);
  });
  const atOnce = overlap === "now";
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Roll API key</DialogTitle>
        <DialogDescription>
          {policyLifetime
            ? `A new value replaces this key, with the same name and a lifetime that follows the key policy (${policyLifetime.toLowerCase()}).`
            : "A new value replaces this key, with the same name and lifetime."}{" "}
          Deploy it to your clients before the old value stops working.
        </DialogDescription>
      </DialogHeader>
      <div className="rounded-md border bg-muted/50 px-3 py-2">
        <p className="font-medium break-words">{apiKey.name}</p>
        <p className="text-sm text-muted-foreground">
          <code className="font-mono text-xs">{apiKey.hint}</code> · <LastUse apiKey={apiKey} prefix="Last used" />
        </p>
      </div>
      {error && !fieldErrors.overlap ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      {/* The field wraps the trigger, not the Select root: the trigger is the labelled control. */}
      <Select name="overlap" value={overlap} onValueChange={(value) => setOverlap(value as RollOverlap)}>
        <FormField
          label="The old value keeps working"
          error={fieldErrors.overlap?.[0]}
          description={
            atOnce
              ? "Calls with the old value are refused with 401 api_key_expired as soon as you roll."
              : "Both values work until then; after it, the old one gets 401 api_key_expired."
          }
        >
          <SelectTrigger className="w-full">
            <SelectValue />
          </SelectTrigger>
        </FormField>
        <SelectContent>
          {ROLL_OVERLAPS.map((choice) => (
            <SelectItem key={choice.value} value={choice.value}>
              {choice.value === "now" ? "No overlap: it stops at once" : `For ${choice.label}`}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FormDialogFooter label="Roll key" pendingLabel="Rolling…" pending={pending} variant={atOnce ? "destructive" : "default"} />
    </form>
  );
}
