"use client";

import type { toast as SonnerToast } from "sonner";

/**
 * The app's toasts: sonner's `toast`, `toast.success` and `toast.error`, with sonner itself (14 KiB)
 * loaded when the page is first used rather than with it (docs/decisions/0067-toasts-load-on-first-use.md).
 * The Toaster (components/ui/sonner.tsx) mounts on the page's first pointer or key press, so its
 * live region is there before the result of that action is announced; a toast asked for before
 * then (an alert arriving by itself) mounts it first and shows once it listens.
 */
type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
let mountToaster: (() => void) | undefined;
let mountAsked = false;
let toasterListens: () => void;
const listening = new Promise<void>((resolve) => (toasterListens = resolve));

/** Sonner's module, imported once. */
export function loadSonner(): Promise<Sonner> {
  return (sonner ??= import("sonner"));
}

/** The Toaster registers how to mount it; a toast asked for earlier mounts it at once. */
export function onToasterWanted(mount: () => void): void {
  mountToaster = mount;
  if (mountAsked) mount();
}

/** Called by the Toaster once it is subscribed to new toasts. */
export function markToasterListening(): void {
  toasterListens();
}

function show(present: (toast: typeof SonnerToast) => void): void {
  mountAsked = true;
  mountToaster?.();
  void Promise.all([loadSonner(), listening]).then(([module]) => present(module.toast));
}

type Message = Parameters<typeof SonnerToast>[0];
type Options = Parameters<typeof SonnerToast>[1];

export const toast = Object.assign((message: Message, options?: Options) => show((sonnerToast) => sonnerToast(message, options)), {
  success: (message: Message, options?: Options) => show((sonnerToast) => sonnerToast.success(message, options)),
  error: (message: Message, options?: Options) => show((sonnerToast) => sonnerToast.error(message, options)),
});
