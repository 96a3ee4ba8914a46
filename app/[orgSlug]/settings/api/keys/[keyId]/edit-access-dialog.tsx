"use client";

import { SlidersHorizontal } from "lucide-react";
import { toast } from "sonner";
import { FormAlert } from "@/components/form-alert";
import { FormDialog, FormDialogFooter } from "@/components/form-dialog";
import { accessFieldsShowError, KeyAccessFields } from "@/components/key-access-fields";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { KeyRestrictions } from "@/core/enums";
import { updateKeyRestrictionsAction } from "../../actions";

/** SPEC §9 (owners, admins): what the key may do and from where; the next request is decided by the new rule. */
export function EditAccessDialog({ orgId, apiKey }: { orgId: string; apiKey: KeyRestrictions & { id: string; name: string } }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm">
          <SlidersHorizontal className="size-4" aria-hidden /> Edit access
        </Button>
      }
      form={(close) => <EditAccessForm orgId={orgId} apiKey={apiKey} onSaved={close} />}
    />
  );
}

function EditAccessForm({ orgId, apiKey, onSaved }: { orgId: string; apiKey: KeyRestrictions & { id: string; name: string }; onSaved: () => void }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(updateKeyRestrictionsAction, () => {
    onSaved();
    toast.success(`Access of “${apiKey.name}” saved`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Edit access</DialogTitle>
        <DialogDescription>
          What “{apiKey.name}” may do and from where. The key&apos;s next request is decided by the new rule; the activity history records the change.
        </DialogDescription>
      </DialogHeader>
      {error && !accessFieldsShowError(fieldErrors) ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <KeyAccessFields initial={apiKey} fieldErrors={fieldErrors} />
      <FormDialogFooter label="Save access" pendingLabel="Saving…" pending={pending} />
    </form>
  );
}
