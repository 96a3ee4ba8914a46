"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { FormAlert } from "@/components/form-alert";
import { LastUse } from "@/components/last-use";
import { OneTimeKeyDialog, type RevealedKey } from "@/components/one-time-key-dialog";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { FormDialogFooter } from "@/components/form-dialog";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { ROLL_OVERLAPS, type RollOverlap } from "@/lib/keys/roll";
import { rollApiKeyAction } from "./actions";

type RollableKey = Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">;

const exactUtc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * Roll (owners): a new value now, shown once; the old one keeps working for the chosen overlap.
 * Rendered for every key that may have been rolled from this page, `rollable` or not: the roll
 * itself makes the key unrollable, and the dialog showing the new value must outlive that render.
 */
export function RollKeyDialog({
  orgId,
  apiKey,
  rollable,
  policyLifetime,
}: {
  orgId: string;
  apiKey: RollableKey;
  rollable: boolean;
  /** The key policy's rule when the old lifetime is outside it, e.g. "Keys expire within 90 days". */
  policyLifetime: string | null;
}) {
  const [oldKeyEnd, setOldKeyEnd] = useState<string | null>(null);
  return (
    <OneTimeKeyDialog
      trigger={
        rollable ? (
          <Button variant="outline" aria-label={`Roll ${apiKey.name}`}>
            <RefreshCw className="size-4" aria-hidden /> Roll
          </Button>
        ) : null
      }
      intro={(key) => (
        <>
          “{key.name}” has a new value. The old one ({apiKey.hint}) {oldKeyEnd && oldKeyEnd <= new Date().toISOString() ? "has stopped working" : `works until ${oldKeyEnd ? exactUtc(oldKeyEnd) : "the overlap ends"}`}.
        </>
      )}
      form={(reveal) => (
        <RollForm
          orgId={orgId}
          apiKey={apiKey}
          policyLifetime={policyLifetime}
          onRolled={(key, endsAt) => {
            setOldKeyEnd(endsAt);
            reveal(key);
          }}
        />
      )}
    />
  );
}

function RollForm({
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
    onRolled({ name: data.key.name, value: data.value, expiresAt: data.key.expiresAt }, data.oldKey.endsAt);
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
          description={atOnce ? "Calls with the old value are refused with 401 api_key_expired as soon as you roll." : "Both values work until then; after it, the old one gets 401 api_key_expired."}
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
