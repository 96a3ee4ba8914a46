"use client";

import * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/** The app's toasts (call `toast()` / `toast.success()` / `toast.error()` from "sonner"). Rendered once per page, by the dashboard's shell (components/dashboard-shell.tsx) and the account page without an organization. */
function Toaster({ theme = "light", richColors = true, closeButton = true, position = "bottom-right", style, ...props }: ToasterProps) {
  return (
    <Sonner
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
