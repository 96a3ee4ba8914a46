"use client";

import { useId } from "react";
import { RadioCard } from "@/components/radio-card";
import { RadioGroup } from "@/components/ui/radio-group";
import { MODE_VALUES, type Mode } from "@/core/enums";
import { KEY_MODE_LABELS } from "@/lib/keys/mode-labels";

const MODE_HELP: Record<Mode, string> = {
  live: "Reads and writes your real invoices, customers and products.",
  test: "Test keys see only test data: nothing they do touches your real invoices or quota.",
};

/**
 * Live or test (docs/features/test-mode.md#keys), a choice made once: a radio group, not a switch,
 * so both are read before one is taken. A mode at the plan's maximum is shown disabled with the
 * sentence that says so.
 */
export function KeyModeField({
  value,
  onChange,
  limits,
  error,
}: {
  value: Mode;
  onChange: (mode: Mode) => void;
  /** Per mode, why no further key of it can be made, or null. */
  limits: Record<Mode, string | null>;
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
            description={limits[mode] ?? MODE_HELP[mode]}
            selected={value === mode}
            disabled={limits[mode] !== null}
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

/** The mode the dialog starts at: live, unless live keys are at the maximum and test keys are not. */
export function initialKeyMode(limits: Record<Mode, string | null>): Mode {
  return limits.live !== null && limits.test === null ? "test" : "live";
}
