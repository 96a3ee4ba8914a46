"use client";

import { useId } from "react";
import { RadioCard } from "@/components/radio-card";
import { RadioGroup } from "@/components/ui/radio-group";
import { MODE_VALUES, type Mode } from "@/core/enums";
import { KEY_MODE_LABELS } from "@/lib/keys/mode-labels";

/**
 * Live or test (docs/features/test-mode.md), a choice made once, for a key or a webhook endpoint:
 * a radio group, not a switch, so both are read before one is taken. A mode given a reason in
 * `unavailable` is shown disabled with it.
 */
export function ModeField({
  value,
  onChange,
  help,
  unavailable = { live: null, test: null },
  error,
}: {
  value: Mode;
  onChange: (mode: Mode) => void;
  /** What each mode means for the thing being made. */
  help: Record<Mode, string>;
  /** Per mode, why it cannot be chosen, or null. */
  unavailable?: Record<Mode, string | null>;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">Mode</legend>
      <RadioGroup
        name="mode"
        value={value}
        onValueChange={(mode) => onChange(mode as Mode)}
        className="gap-2 sm:grid-cols-2"
        aria-invalid={error ? true : undefined}
      >
        {MODE_VALUES.map((mode) => (
          <RadioCard
            key={mode}
            id={`${id}-${mode}`}
            value={mode}
            label={KEY_MODE_LABELS[mode]}
            description={unavailable[mode] ?? help[mode]}
            selected={value === mode}
            disabled={unavailable[mode] !== null}
          />
        ))}
      </RadioGroup>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
