"use client";

import { autoUpdate, flip, offset, shift, useFloating } from "@floating-ui/react-dom";
import { useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { cn } from "@/lib/utils";

/** A tooltip's bubble beside `anchor`, above it where there is room, kept inside the window (components/ui/tooltip.tsx). */
export function TooltipBubble({ anchor, className, children }: { anchor: HTMLElement; className?: string; children: ReactNode }) {
  const [bubble, setBubble] = useState<HTMLDivElement | null>(null);
  const { floatingStyles } = useFloating({
    elements: { reference: anchor, floating: bubble },
    placement: "top",
    middleware: [offset(6), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  return createPortal(
    <div
      ref={setBubble}
      style={floatingStyles}
      role="tooltip"
      className={cn(
        "z-50 w-max max-w-xs rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md animate-in fade-in-0 zoom-in-95",
        className,
      )}
    >
      {children}
    </div>,
    document.body,
  );
}
