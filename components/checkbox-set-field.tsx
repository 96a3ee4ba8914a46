"use client";

import { useId, useState, type ReactNode } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";

/**
 * Several of a fixed set of choices, each a checkbox with what it means, sent as one field of
 * comma-separated values in the set's order (lib/input-rules.ts `commaSeparatedChoices` reads it).
 * All are ticked at first unless `initial` says otherwise.
 */
export function CheckboxSetField<T extends string>({
  legend,
  name,
  options,
  initial = options.map((option) => option.value),
  error,
}: {
  legend: string;
  name: string;
  options: readonly { value: T; label: ReactNode; description: string }[];
  initial?: readonly T[];
  error?: string;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<ReadonlySet<T>>(new Set(initial));
  const toggle = (value: T, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(value);
      else next.delete(value);
      return next;
    });
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <input
        type="hidden"
        name={name}
        value={options
          .filter((option) => chosen.has(option.value))
          .map((option) => option.value)
          .join(",")}
      />
      {options.map((option) => (
        <div key={option.value} className="flex items-start gap-3">
          <Checkbox
            id={`${id}-${option.value}`}
            checked={chosen.has(option.value)}
            onCheckedChange={(checked) => toggle(option.value, checked === true)}
            className="mt-0.5"
          />
          <Label htmlFor={`${id}-${option.value}`} className="grid gap-0.5 font-normal">
            <span className="text-sm font-medium">{option.label}</span>
            <span className="text-sm text-muted-foreground">{option.description}</span>
          </Label>
        </div>
      ))}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
