import type { Locator } from "@playwright/test";

// The filters are the browser's own selects (components/ui/native-select.tsx): an option is chosen
// with selectOption, not clicked, and the closed select shows its chosen option's label.

/** Chooses the option of `select` whose label is `label` (or matches it). */
export async function chooseOption(select: Locator, label: string | RegExp): Promise<void> {
  // Reading the options does not wait: a page streamed behind its loading skeleton shows its
  // content a moment after the load event (React reveals streamed boundaries in batches).
  await select.waitFor();
  const labels = (await select.locator("option").allTextContents()).map((text) => text.trim());
  const match = labels.find((text) => (typeof label === "string" ? text === label : label.test(text)));
  if (match === undefined) throw new Error(`No option ${String(label)} among: ${labels.join(", ")}`);
  await select.selectOption({ label: match });
}

/** The option `select` shows, to assert its label. */
export function chosenOption(select: Locator): Locator {
  return select.locator("option:checked");
}
