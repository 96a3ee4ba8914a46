"use client";

import { useState } from "react";
import { toast } from "sonner";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { PERSON_REVOKE_REASON_VALUES, type RevokeReason } from "@/core/enums";
import { FormAlert } from "@/components/form-alert";
import { LastUse } from "@/components/last-use";
import { useActionForm } from "@/components/use-action-form";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { REVOKE_NOTE_MAX, REVOKE_REASONS } from "@/lib/keys/revoke-reasons";
import { revokeApiKeyAction } from "./actions";

type RevokableKey = Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">;

/** The revoke confirmation (owners): the key, its last use, an optional reason and note for the history. */
export function RevokeKeyDialog({ orgId, apiKey, size = "sm" }: { orgId: string; apiKey: RevokableKey; size?: "sm" | "default" }) {
  const [open, setOpen] = useState(false);
  // A fresh form at each opening: the last attempt's choices and refusal do not greet the next one.
  const [opening, setOpening] = useState(0);

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setOpening((n) => n + 1);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline" size={size} className="text-destructive hover:text-destructive" aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <RevokeForm key={opening} orgId={orgId} apiKey={apiKey} onRevoked={() => setOpen(false)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}

function RevokeForm({ orgId, apiKey, onRevoked }: { orgId: string; apiKey: RevokableKey; onRevoked: () => void }) {
  const [reason, setReason] = useState<RevokeReason | "">("");
  const [note, setNote] = useState("");
  const { pending, onSubmit, error, fieldErrors } = useActionForm(revokeApiKeyAction, (revoked) => {
    onRevoked();
    toast.success(`Revoked “${revoked.name}”`, { description: "Requests with this key now get 401 api_key_revoked." });
  });

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <AlertDialogHeader>
        <AlertDialogTitle>Revoke API key</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="space-y-3">
            <div className="rounded-md border bg-muted/50 px-3 py-2 text-foreground">
              <p className="font-medium break-words">{apiKey.name}</p>
              <p className="text-sm text-muted-foreground">
                <code className="font-mono text-xs">{apiKey.hint}</code> · <LastUse apiKey={apiKey} prefix="Last used" />
              </p>
            </div>
            <p>Requests using this key will fail at once with 401. This cannot be undone: to restore access, create a new key and deploy it.</p>
          </div>
        </AlertDialogDescription>
      </AlertDialogHeader>
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      {/* The field wraps the trigger, not the Select root: the trigger is the labelled control. */}
      <Select name="reason" value={reason} onValueChange={(value) => setReason(value as RevokeReason)}>
        <FormField label="Reason (optional)" error={fieldErrors.reason?.[0]}>
          <SelectTrigger className="w-full">
            <SelectValue placeholder="Choose a reason" />
          </SelectTrigger>
        </FormField>
        <SelectContent>
          {PERSON_REVOKE_REASON_VALUES.map((value) => (
            <SelectItem key={value} value={value}>
              {REVOKE_REASONS[value]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FormField
        label={reason === "other" ? "Note" : "Note (optional)"}
        description={`Kept in the activity history with the reason. ${note.trim().length}/${REVOKE_NOTE_MAX}`}
        error={fieldErrors.note?.[0]}
      >
        <Textarea name="note" value={note} onChange={(event) => setNote(event.target.value)} maxLength={REVOKE_NOTE_MAX} rows={2} placeholder="e.g. Found in a public repository" />
      </FormField>
      {error && !fieldErrors.reason && !fieldErrors.note ? <FormAlert>{error}</FormAlert> : null}
      <AlertDialogFooter>
        <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
        <Button type="submit" variant="destructive" disabled={pending}>
          {pending ? "Revoking…" : "Revoke key"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}
