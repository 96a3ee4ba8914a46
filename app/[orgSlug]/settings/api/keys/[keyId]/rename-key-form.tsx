"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { KeyNameField } from "@/components/key-name-field";
import { useActionForm } from "@/components/use-action-form";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { renameApiKeyAction } from "../../actions";

/** The rename dialog's form, fetched when the dialog is about to open (rename-key-dialog.tsx). */
export function RenameForm({ orgId, apiKey, onRenamed }: { orgId: string; apiKey: { id: string; name: string }; onRenamed: () => void }) {
  const [name, setName] = useState(apiKey.name);
  const { pending, onSubmit, error, fieldErrors } = useActionForm(renameApiKeyAction, (renamed) => {
    onRenamed();
    toast.success(`Renamed to “${renamed.name}”`);
  });
  const unchanged = name.trim() === apiKey.name;
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Rename API key</DialogTitle>
        <DialogDescription>The key&apos;s value, requests and history stay as they are. The activity history records the old and new name.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.name ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <KeyNameField value={name} onChange={setName} error={fieldErrors.name?.[0]} />
      <FormDialogFooter label="Save name" pendingLabel="Saving…" pending={pending} disabled={unchanged || name.trim() === ""} />
    </form>
  );
}
