"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import { needsIdentity, useIdentityConfirmation } from "@/components/identity-confirmation-context";
import type { ActionResult } from "@/lib/action-result";

/** A server action a form sends its FormData to. */
export type FormActionFn<T> = (prev: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * useActionState for forms that keep what the user typed when the server refuses it
 * (a plain `action={…}` form is reset by React after every submission). A change sudo mode
 * refuses is sent again once the person confirms who they are (docs/security.md#sudo-mode).
 */
export function useActionForm<T>(action: FormActionFn<T>, onSuccess?: (data: T) => void) {
  const askForIdentity = useIdentityConfirmation();
  // Sudo mode's refusal, shown only once the person declines to answer its question.
  const [declined, setDeclined] = useState<string | null>(null);
  // The same form sent again once the person answers: the action below cannot name dispatch itself.
  const sendAgain = useRef<(form: FormData) => void>(() => {});
  const [state, dispatch, pending] = useActionState(async (prev: ActionResult<T> | null, form: FormData) => {
    const result = await action(prev, form);
    if (needsIdentity(result)) {
      void askForIdentity().then((confirmed) => (confirmed ? sendAgain.current(form) : setDeclined(result.ok ? null : result.error)));
      return prev;
    }
    if (result.ok) onSuccess?.(result.data);
    return result;
  }, null);
  useEffect(() => {
    sendAgain.current = (form) => startTransition(() => dispatch(form));
  }, [dispatch]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setDeclined(null);
    startTransition(() => dispatch(form));
  };
  const failure = state && !state.ok ? state : null;
  return { state, pending, onSubmit, error: declined ?? failure?.error ?? null, fieldErrors: failure?.fieldErrors ?? {} };
}
