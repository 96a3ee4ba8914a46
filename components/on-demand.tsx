"use client";

import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

/** Handlers for the control that shows an on-demand part: the pointer on it or focus in it starts the download. */
export interface PrefetchHandlers {
  onPointerEnter: () => void;
  onFocus: () => void;
}

export type OnDemand<P extends object> = ComponentType<P & { loading?: ReactNode }> & {
  /** Starts the download now (once); the part shows as soon as it is there. */
  prefetch: () => void;
  prefetchHandlers: PrefetchHandlers;
};

/**
 * A part of a page whose code is fetched when it is first shown (a dialog's form, a confirmation,
 * the live view's rows) instead of with the page, so the page hydrates sooner
 * (docs/decisions/0065-on-demand-dialogs.md). The control that opens it stays a normal hydrated
 * button and spreads `prefetchHandlers`, so the code is usually there by the click; until it is,
 * `fallback` shows, or a use's own `loading` (what was there before, say).
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): OnDemand<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        // A download that failed on hover (offline for a moment) is tried again when the part is shown.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Loaded = lazy(start);
  function Part({ loading: shown = fallback, ...props }: P & { loading?: ReactNode }) {
    return (
      <Suspense fallback={shown}>
        <Loaded {...(props as P)} />
      </Suspense>
    );
  }
  const prefetch = () => void start().catch(() => {});
  return Object.assign(Part, { prefetch, prefetchHandlers: { onPointerEnter: prefetch, onFocus: prefetch } });
}
