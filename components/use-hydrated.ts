"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true from the render after.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A control's `disabled` until its page's JavaScript can act on it: drawn disabled before, so a
 * click never lands on a button that would swallow it (docs/decisions/0062-first-click.md). Marked
 * `data-hydrating` (not dimmed, a waiting cursor: app/globals.css) so the page does not flash grey
 * while it loads; a control disabled for its own reason keeps its look. A plain link or a form
 * that submits without JavaScript needs no such guard.
 */
export function useDisabledUntilHydrated(disabled: boolean | undefined): { disabled: boolean; "data-hydrating"?: "" } {
  const hydrated = useHydrated();
  if (hydrated || disabled) return { disabled: Boolean(disabled) };
  return { disabled: true, "data-hydrating": "" };
}
