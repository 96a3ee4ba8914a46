"use client";

import { useState, useTransition } from "react";
import { needsIdentity, useIdentityConfirmation } from "@/components/identity-confirmation-context";
import type { ActionResult } from "@/lib/action-result";

/** A server action called with plain values rather than a form, as a confirm dialog's button calls it. */
export type ConfirmAction<I, T> = (prev: null, input: I) => Promise<ActionResult<T>>;

/**
 * The action behind a confirm dialog's button: `run` calls it in a transition (`pending` until it
 * answers), `onSettled` follows either answer, a refusal's message stays in `error` and a success
 * goes to `onSuccess` (close the dialog, say what happened). A control with no dialog of its own
 * shows a refusal through `onError` (a toast) instead. A change sudo mode refuses is sent again
 * once the person confirms who they are (docs/security.md#sudo-mode). Dashboard actions revalidate the
 * organization's pages themselves (lib/action.ts), so nothing here refreshes the router.
 */
export function useConfirmAction<I, T>(
  action: ConfirmAction<I, T>,
  { onSuccess, onSettled, onError }: { onSuccess?: (data: T) => void; onSettled?: () => void; onError?: (message: string) => void } = {},
) {
  const askForIdentity = useIdentityConfirmation();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const settle = (result: ActionResult<T>) => {
    onSettled?.();
    setError(result.ok ? null : result.error);
    if (result.ok) onSuccess?.(result.data);
    else onError?.(result.error);
  };
  const run = (input: I) =>
    startTransition(async () => {
      const result = await action(null, input);
      // The dialog stays open while the person answers; answered, the same change goes again.
      if (needsIdentity(result)) void askForIdentity().then((confirmed) => (confirmed ? run(input) : settle(result)));
      else settle(result);
    });
  return { pending, error, run, clearError: () => setError(null) };
}
