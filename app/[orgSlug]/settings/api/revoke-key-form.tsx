"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { PERSON_REVOKE_REASON_VALUES, type RevokeReason } from "@/core/enums";
import { FormAlert } from "@/components/form-alert";
import { LastUse } from "@/components/last-use";
import { useActionForm } from "@/components/use-action-form";
import { AlertDialogCancel, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { REVOKE_NOTE_MAX, REVOKE_REASONS } from "@/lib/keys/revoke-reasons";
import { revokeApiKeyAction } from "./actions";
import type { RevokableKey } from "./revoke-key-dialog";

/** The revoke form inside its dialog, loaded when the dialog is first wanted. */
export function RevokeForm({ orgId, apiKey, onRevoked }: { orgId: string; apiKey: RevokableKey; onRevoked: () => void }) {
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
        <Textarea
          name="note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={REVOKE_NOTE_MAX}
          rows={2}
          placeholder="e.g. Found in a public repository"
        />
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
