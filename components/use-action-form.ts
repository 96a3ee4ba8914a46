"use client";

import { startTransition, useActionState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/action-result";

type FormActionFn<T> = (prev: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * useActionState for forms that keep what the user typed when the server refuses it
 * (a plain `action={…}` form is reset by React after every submission).
 */
export function useActionForm<T>(action: FormActionFn<T>, onSuccess?: (data: T) => void) {
  const [state, dispatch, pending] = useActionState(async (prev: ActionResult<T> | null, form: FormData) => {
    const result = await action(prev, form);
    if (result.ok) onSuccess?.(result.data);
    return result;
  }, null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  };
  const failure = state && !state.ok ? state : null;
  return { state, pending, onSubmit, error: failure?.error ?? null, fieldErrors: failure?.fieldErrors ?? {} };
}
