"use client";

import { ModeField } from "@/components/mode-field";
import type { Mode } from "@/core/enums";

const MODE_HELP: Record<Mode, string> = {
  live: "Reads and writes your real invoices, customers and products.",
  test: "Test keys see only test data: nothing they do touches your real invoices or quota.",
};

/** A new key's mode (docs/features/test-mode.md#keys); a mode at the plan's maximum is shown disabled with the sentence that says so. */
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
  return <ModeField value={value} onChange={onChange} help={MODE_HELP} unavailable={limits} error={error} />;
}

/** The mode the dialog starts at: the dashboard's, unless that mode is at the maximum and the other is not. */
export function initialKeyMode(limits: Record<Mode, string | null>, preferred: Mode): Mode {
  const other: Mode = preferred === "live" ? "test" : "live";
  return limits[preferred] !== null && limits[other] === null ? other : preferred;
}
