"use client";

import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { SecondFactorFields, type SecondFactorMethods } from "@/components/second-factor-fields";
import { useActionForm } from "@/components/use-action-form";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { beginPasskeyProofAction, removeTotpAction } from "./actions";

export interface RemoveTotpFormProps {
  close: () => void;
  methods: SecondFactorMethods;
}

/** "Turn off two-factor authentication?", confirmed with a second factor. Loaded when its dialog opens. */
export function RemoveTotpForm({ close, methods }: RemoveTotpFormProps) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(removeTotpAction, () => {
    close();
    toast.success("Two-factor authentication is off", { description: "Sign-in asks for your password only. Your recovery codes no longer work." });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Turn off two-factor authentication?</DialogTitle>
        <DialogDescription>Your password alone will sign you in, and your recovery codes stop working. Confirm with a code first.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.code ? <FormAlert>{error}</FormAlert> : null}
      <SecondFactorFields methods={methods} beginPasskey={beginPasskeyProofAction} error={fieldErrors.code?.[0]} autoFocus />
      <FormDialogFooter label="Turn off" pendingLabel="Turning off…" pending={pending} variant="destructive" />
    </form>
  );
}
