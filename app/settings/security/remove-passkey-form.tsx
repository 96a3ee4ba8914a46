"use client";

import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { SecondFactorFields, type SecondFactorMethods } from "@/components/second-factor-fields";
import { useActionForm } from "@/components/use-action-form";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { beginPasskeyProofAction, removePasskeyAction } from "./actions";

/** A passkey as the security page lists it. */
export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface RemovePasskeyFormProps {
  passkey: PasskeyRow;
  methods: SecondFactorMethods;
  close: () => void;
}

/** "Remove …?", confirmed with a second factor. Loaded when its dialog opens. */
export function RemovePasskeyForm({ passkey, methods, close }: RemovePasskeyFormProps) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(removePasskeyAction, () => {
    close();
    toast.success(`Removed “${passkey.name}”`);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Remove “{passkey.name}”?</DialogTitle>
        <DialogDescription>It will no longer sign you in. Confirm with a second factor first.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.code ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="passkeyId" value={passkey.id} />
      <SecondFactorFields methods={methods} beginPasskey={beginPasskeyProofAction} error={fieldErrors.code?.[0]} autoFocus />
      <FormDialogFooter label="Remove passkey" pendingLabel="Removing…" pending={pending} variant="destructive" />
    </form>
  );
}
