"use client";

import { useSyncExternalStore } from "react";

/**
 * A module fetched once, when first needed rather than with the page
 * (docs/decisions/0064-charts-load-when-seen.md): the charts, fetched once the first of them is seen,
 * every chart of the page drawing then. A dialog's form is a part of its own (components/on-demand.tsx).
 */
export interface LazyModule<M> {
  /** Begins the fetch; again after a failed one. */
  load: () => void;
  /** The module once fetched, else null (so in the server's HTML and at hydration). */
  useLoaded: () => M | null;
}

export function lazyModule<M>(fetchModule: () => Promise<M>): LazyModule<M> {
  let loaded: M | null = null;
  let fetching = false;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    load: () => {
      if (fetching || loaded) return;
      fetching = true;
      fetchModule().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
        },
        () => {
          fetching = false;
        },
      );
    },
    useLoaded: () =>
      useSyncExternalStore(
        subscribe,
        () => loaded,
        () => null,
      ),
  };
}
