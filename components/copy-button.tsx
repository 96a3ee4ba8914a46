"use client";

import * as React from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "@/components/toast";
import { Button, type ButtonSize, type ButtonVariant } from "@/components/ui/button";
import { cn } from "@/lib/utils";

type CopyButtonProps = Omit<React.ComponentProps<typeof Button>, "value" | "children" | "asChild" | "onCopy"> & {
  /** The text to put on the clipboard. */
  value: string;
  /** Accessible name, and the visible text with `showLabel`. Default "Copy". */
  label?: string;
  /** Show `label` next to the icon (otherwise an icon-only button). */
  showLabel?: boolean;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Called after a successful copy. */
  onCopied?: () => void;
};

const RESET_AFTER_MS = 2000;

/** Copies `value` to the clipboard; shows a check mark and "Copied" for two seconds. */
export function CopyButton({ value, label = "Copy", showLabel = false, variant = "outline", size, className, onClick, onCopied, ...props }: CopyButtonProps) {
  const [copied, setCopied] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  React.useEffect(() => () => clearTimeout(timer.current), []);

  async function copy(event: React.MouseEvent<HTMLButtonElement>) {
    onClick?.(event);
    if (event.defaultPrevented) return;
    try {
      if (!navigator.clipboard?.writeText) throw new Error("Clipboard API unavailable");
      await navigator.clipboard.writeText(value);
    } catch {
      toast.error("Could not copy to the clipboard", { description: "Select the text and copy it with your keyboard instead." });
      return;
    }
    setCopied(true);
    onCopied?.();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), RESET_AFTER_MS);
  }

  // Icon-only while idle; the "Copied" text is always shown so the confirmation is visible.
  const iconOnly = !showLabel && !copied;
  return (
    <>
      <Button
        type="button"
        variant={variant}
        size={size ?? (iconOnly ? "icon" : "default")}
        aria-label={iconOnly ? label : undefined}
        title={iconOnly ? label : undefined}
        data-copied={copied || undefined}
        className={cn("shrink-0", copied && "text-success-foreground hover:text-success-foreground", className)}
        onClick={copy}
        {...props}
      >
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        {copied ? "Copied" : showLabel ? label : null}
      </Button>
      <span role="status" className="sr-only">
        {copied ? "Copied to clipboard" : ""}
      </span>
    </>
  );
}
