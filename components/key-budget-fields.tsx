"use client";

import { useState } from "react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { BUDGET_PERIOD_VALUES, type BudgetPeriod, type KeyBudget } from "@/core/key-budget";

type FieldErrors = Partial<Record<string, string[]>>;

const PERIOD_CHOICES: Record<BudgetPeriod, string> = { day: "Per day", week: "Per week (from Monday)", month: "Per month" };

/** Whether a refusal is shown on one of these fields (the dialog then needs no message above the form). */
export function budgetFieldsShowError(fieldErrors: FieldErrors): boolean {
  return Boolean(fieldErrors.budgetLimit?.length || fieldErrors.budgetPeriod?.length);
}

/**
 * The budget fields of the create and edit dialogs: a number of requests, empty for no budget, and
 * the UTC period it counts in.
 */
export function KeyBudgetFields({ initial, fieldErrors }: { initial?: KeyBudget | null; fieldErrors: FieldErrors }) {
  const [period, setPeriod] = useState<BudgetPeriod>(initial?.period ?? "day");
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Budget</legend>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Requests (optional)" error={fieldErrors.budgetLimit?.[0]} labelClassName="font-normal">
          <Input name="budgetLimit" inputMode="numeric" autoComplete="off" defaultValue={initial ? String(initial.limit) : ""} placeholder="No budget" />
        </FormField>
        <Select name="budgetPeriod" value={period} onValueChange={(value) => setPeriod(value as BudgetPeriod)}>
          <FormField label="Counted" error={fieldErrors.budgetPeriod?.[0]} labelClassName="font-normal">
            <SelectTrigger className="w-full">
              <SelectValue />
            </SelectTrigger>
          </FormField>
          <SelectContent>
            {BUDGET_PERIOD_VALUES.map((value) => (
              <SelectItem key={value} value={value}>
                {PERIOD_CHOICES[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p className="text-sm text-muted-foreground">
        A hard stop: once the key has made this many requests in the period (UTC), further calls get 429 key_budget_exceeded until it resets. Owners, admins and
        members are alerted at 80 % and 100 %.
      </p>
    </fieldset>
  );
}
