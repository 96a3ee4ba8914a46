"use client";

import * as React from "react";
import type { ToasterProps } from "sonner";
import { loadSonner, markToasterListening, onToasterWanted } from "@/components/toast";

const SonnerToaster = React.lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

// What a person does first on a page: the Toaster mounts then, before any result to announce.
const FIRST_USE = ["pointerdown", "keydown"] as const;

/** Rendered after the Toaster in the same Suspense boundary: its effect runs once the Toaster's subscription is in place. */
function Listening() {
  React.useEffect(markToasterListening, []);
  return null;
}

/**
 * The app's toasts (call `toast()` / `toast.success()` / `toast.error()` from components/toast.ts). Rendered once per page,
 * by the dashboard's shell (components/dashboard-shell.tsx) and the account page without an organization; sonner is
 * loaded on the page's first pointer or key press, or by the first toast.
 */
function Toaster(props: ToasterProps) {
  const [wanted, setWanted] = React.useState(false);
  React.useEffect(() => {
    // A transition, not part of the press's own update: mounted in the same commit as a menu the press opens, it closed it.
    const want = () => React.startTransition(() => setWanted(true));
    onToasterWanted(want);
    for (const type of FIRST_USE) document.addEventListener(type, want, { capture: true, passive: true, once: true });
    return () => {
      for (const type of FIRST_USE) document.removeEventListener(type, want, { capture: true });
    };
  }, []);
  if (!wanted) return null;
  return (
    <React.Suspense fallback={null}>
      <StyledToaster {...props} />
      <Listening />
    </React.Suspense>
  );
}

function StyledToaster({ theme = "light", richColors = true, closeButton = true, position = "bottom-right", style, ...props }: ToasterProps) {
  return (
    <SonnerToaster
      theme={theme}
      richColors={richColors}
      closeButton={closeButton}
      position={position}
      className="toaster group"
      containerAriaLabel="Notifications"
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--border-radius": "var(--radius)",
          // richColors, from the theme tokens (sonner's own greens and reds are below 4.5:1 contrast).
          "--success-bg": "color-mix(in oklab, var(--success) 12%, var(--background))",
          "--success-border": "color-mix(in oklab, var(--success) 35%, var(--background))",
          "--success-text": "var(--success-foreground)",
          "--error-bg": "color-mix(in oklab, var(--destructive) 6%, var(--background))",
          "--error-border": "color-mix(in oklab, var(--destructive) 30%, var(--background))",
          "--error-text": "var(--destructive)",
          "--warning-bg": "color-mix(in oklab, var(--warning) 12%, var(--background))",
          "--warning-border": "color-mix(in oklab, var(--warning) 45%, var(--background))",
          "--warning-text": "var(--warning-foreground)",
          "--info-bg": "var(--accent)",
          "--info-border": "color-mix(in oklab, var(--primary) 25%, var(--background))",
          "--info-text": "var(--accent-foreground)",
          fontFamily: "var(--font-sans)",
          ...style,
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
