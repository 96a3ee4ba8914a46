"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { useConfirmAction } from "@/components/use-confirm-action";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PASSKEY_NAME_MAX } from "@/lib/auth/passkey-input";
import { addPasskeyAction, beginPasskeySetupAction } from "./actions";

export interface AddPasskeyFormProps {
  close: () => void;
  onRecoveryCodes: (codes: string[]) => void;
}

/**
 * Names the passkey, then has the browser make it on the person's device; the server checks and
 * keeps it. Loaded when "Add a passkey" opens.
 */
export function AddPasskeyForm({ close, onRecoveryCodes }: AddPasskeyFormProps) {
  const [name, setName] = useState("");
  const [waiting, setWaiting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const add = useConfirmAction(addPasskeyAction, {
    onSuccess: (data) => {
      close();
      if (data.recoveryCodes) onRecoveryCodes(data.recoveryCodes);
      toast.success("Passkey added", { description: "Sign-in can now ask your device instead of a code." });
    },
  });
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    setWaiting(true);
    // The browser library comes with the ceremony, not with the page (docs/decisions/0065-on-demand-dialogs.md).
    const { runPasskeyCeremony } = await import("@/components/passkey-ceremony");
    const outcome = await runPasskeyCeremony("create", beginPasskeySetupAction);
    setWaiting(false);
    if ("error" in outcome) return setFailure(outcome.error);
    add.run({ name, credential: outcome.credential });
  };
  const error = failure ?? add.error;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Add a passkey</DialogTitle>
        <DialogDescription>
          Your browser asks your device (a security key, Touch ID, Windows Hello or your phone) to make a passkey for this account.
        </DialogDescription>
      </DialogHeader>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <FormField label="Name" description="So you can tell your passkeys apart.">
        <Input
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={PASSKEY_NAME_MAX}
          placeholder="MacBook Touch ID"
          autoFocus
          required
        />
      </FormField>
      <FormDialogFooter
        label="Continue"
        pendingLabel={waiting ? "Waiting for your device…" : "Adding…"}
        pending={waiting || add.pending}
        disabled={name.trim() === ""}
      />
    </form>
  );
}
