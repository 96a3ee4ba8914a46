"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { accessFieldsShowError, KeyAccessFields } from "@/components/key-access-fields";
import { budgetFieldsShowError, KeyBudgetFields } from "@/components/key-budget-fields";
import { KeyNameField } from "@/components/key-name-field";
import type { RevealedKey } from "@/components/one-time-key-dialog";
import { useActionForm } from "@/components/use-action-form";
import { FormDialogFooter } from "@/components/form-dialog";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { Mode } from "@/core/enums";
import { customExpiryBounds, KEY_EXPIRY_CHOICES, type KeyExpiryChoice } from "@/lib/keys/expiry";
import { allowedExpiryChoices, defaultExpiryChoice, describeKeyPolicy, lastCustomExpiryDay, type KeyPolicy } from "@/lib/keys/policy";
import { createApiKeyAction } from "../actions";
import { initialKeyMode, KeyModeField } from "./key-mode-field";

/** The create form inside its dialog, loaded when the dialog is first wanted. */
export function CreateKeyForm({
  orgId,
  keyPolicy,
  limits,
  preferredMode,
  onCreated,
}: {
  orgId: string;
  keyPolicy: KeyPolicy;
  /** Per mode, why the plan allows no further key of it, or null. */
  limits: Record<Mode, string | null>;
  /** The dashboard's mode (lib/view-mode.ts): in test mode a new key is a test key unless changed. */
  preferredMode: Mode;
  onCreated: (key: RevealedKey) => void;
}) {
  // The form mounts when the dialog opens, so this clock is the moment the person starts.
  const [openedAt] = useState(() => new Date());
  const allowed = allowedExpiryChoices(keyPolicy, openedAt);
  const policyLine = describeKeyPolicy(keyPolicy);
  const [name, setName] = useState("");
  const [mode, setMode] = useState<Mode>(() => initialKeyMode(limits, preferredMode));
  const [expiresIn, setExpiresIn] = useState<KeyExpiryChoice>(() => defaultExpiryChoice(keyPolicy, openedAt));
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createApiKeyAction, (data) => {
    onCreated({ name: data.key.name, mode: data.key.mode, value: data.value, expiresAt: data.key.expiresAt });
    toast.success(`Created “${data.key.name}”`);
  });
  const bounds = customExpiryBounds(openedAt);
  const lastDay = [bounds.last, lastCustomExpiryDay(keyPolicy, openedAt)].filter((day) => day !== null).sort()[0];

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Create API key</DialogTitle>
        <DialogDescription>Name the key after where it will be used, so you know what breaks if you revoke it.</DialogDescription>
      </DialogHeader>
      {error &&
      !fieldErrors.name &&
      !fieldErrors.mode &&
      !fieldErrors.expiresIn &&
      !fieldErrors.expiresOn &&
      !accessFieldsShowError(fieldErrors) &&
      !budgetFieldsShowError(fieldErrors) ? (
        <FormAlert>{error}</FormAlert>
      ) : null}
      <input type="hidden" name="orgId" value={orgId} />
      <KeyNameField value={name} onChange={setName} error={fieldErrors.name?.[0]} />
      <KeyModeField value={mode} onChange={setMode} limits={limits} error={fieldErrors.mode?.[0]} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select name="expiresIn" value={expiresIn} onValueChange={(value) => setExpiresIn(value as KeyExpiryChoice)}>
          <FormField
            label="Expiration"
            error={fieldErrors.expiresIn?.[0]}
            description={policyLine ? `${policyLine} (your organization's key policy).` : "From then on, calls with the key are refused."}
          >
            <SelectTrigger className="w-full">
              <SelectValue />
            </SelectTrigger>
          </FormField>
          <SelectContent>
            {KEY_EXPIRY_CHOICES.map((choice) => (
              <SelectItem key={choice.value} value={choice.value} disabled={!allowed.includes(choice.value)}>
                {choice.label}
                {allowed.includes(choice.value) ? null : <span className="text-muted-foreground"> · not allowed by the key policy</span>}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {expiresIn === "date" ? (
          <FormField label="Expires at the end of (UTC)" error={fieldErrors.expiresOn?.[0]}>
            <Input name="expiresOn" type="date" min={bounds.first} max={lastDay} required />
          </FormField>
        ) : null}
      </div>
      <KeyAccessFields fieldErrors={fieldErrors} />
      <KeyBudgetFields fieldErrors={fieldErrors} />
      <FormDialogFooter label="Create key" pendingLabel="Creating…" pending={pending} disabled={name.trim() === ""} />
    </form>
  );
}
