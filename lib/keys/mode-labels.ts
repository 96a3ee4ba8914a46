import type { Mode } from "@/core/enums";

/** How the create dialog, the key page and the history name a key's mode (docs/features/test-mode.md#keys). */
export const KEY_MODE_LABELS: Record<Mode, string> = {
  live: "Live",
  test: "Test",
};
