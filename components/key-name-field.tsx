"use client";

import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { characterCount } from "@/lib/input-rules";
import { API_KEY_NAME_MAX, genericNameWarning } from "@/lib/keys/input";

/** A key's name as the create and rename dialogs ask for it: a live count and a warning for names that say nothing. */
export function KeyNameField({ value, onChange, error }: { value: string; onChange: (name: string) => void; error?: string }) {
  const count = characterCount(value.trim());
  const warning = genericNameWarning(value);
  return (
    <FormField
      label="Name"
      error={error}
      description={
        <span className="flex justify-between gap-4">
          <span className={warning ? "text-warning-foreground" : undefined} role={warning ? "status" : undefined}>
            {warning ?? "For example “Production billing server”, “Staging” or “iOS app”."}
          </span>
          <span className={count > API_KEY_NAME_MAX ? "text-destructive tabular-nums" : "tabular-nums"} aria-live="polite">
            {count}/{API_KEY_NAME_MAX}
          </span>
        </span>
      }
    >
      <Input
        name="name"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        autoFocus
        required
        placeholder="Production billing server"
      />
    </FormField>
  );
}
