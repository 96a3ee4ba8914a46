"use client";

import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { accessFieldsShowError, KeyAccessFields } from "@/components/key-access-fields";
import { budgetFieldsShowError, KeyBudgetFields } from "@/components/key-budget-fields";
import { useActionForm } from "@/components/use-action-form";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { KeyRestrictions } from "@/core/enums";
import type { KeyBudget } from "@/core/key-budget";
import { updateKeyRestrictionsAction } from "../../actions";

export type EditableKey = KeyRestrictions & { id: string; name: string; budget: KeyBudget | null };

/** The access dialog's form, fetched when the dialog is about to open (edit-access-dialog.tsx). */
export function EditAccessForm({ orgId, apiKey, onSaved }: { orgId: string; apiKey: EditableKey; onSaved: () => void }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(updateKeyRestrictionsAction, () => {
    onSaved();
    toast.success(`Access of “${apiKey.name}” saved`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Edit access</DialogTitle>
        <DialogDescription>
          What “{apiKey.name}” may do, from where and how much. The key&apos;s next request is decided by the new rule; the activity history records the change.
        </DialogDescription>
      </DialogHeader>
      {error && !accessFieldsShowError(fieldErrors) && !budgetFieldsShowError(fieldErrors) ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <KeyAccessFields initial={apiKey} fieldErrors={fieldErrors} />
      <KeyBudgetFields initial={apiKey.budget} fieldErrors={fieldErrors} />
      <FormDialogFooter label="Save access" pendingLabel="Saving…" pending={pending} />
    </form>
  );
}
