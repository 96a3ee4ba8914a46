"use client";

import { Slot } from "radix-ui";
import { useCallback, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from "react";
import { onDemand } from "@/components/on-demand";

const Bubble = onDemand(() => import("./tooltip-bubble").then((module) => module.TooltipBubble));

/** As long as a pointer rests before the bubble opens: passing over a table's badges opens none. */
const OPEN_DELAY_MS = 200;

/**
 * A short explanation of its one focusable child, shown on mouse hover and keyboard focus and
 * closed by Escape. The text is in the page from the start as the child's description; the
 * positioned bubble and its placement library load the first time one opens
 * (docs/decisions/0069-tooltips-load-when-opened.md).
 */
export function Tooltip({ content, className, children }: { content: ReactNode; className?: string; children: ReactElement }) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const show = (element: HTMLElement) => {
    Bubble.prefetch();
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setAnchor(element), OPEN_DELAY_MS);
  };
  const hide = useCallback(() => {
    window.clearTimeout(timer.current);
    setAnchor(null);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!anchor) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      // hide, not just the bubble: a focus while hovered may have an open pending that would bring it back.
      if (event.key === "Escape") hide();
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [anchor, hide]);
  return (
    <>
      <Slot.Root
        aria-describedby={id}
        onPointerEnter={(event) => event.pointerType === "mouse" && show(event.currentTarget)}
        onPointerLeave={hide}
        onFocus={(event) => show(event.currentTarget)}
        onBlur={hide}
      >
        {children}
      </Slot.Root>
      <span id={id} hidden>
        {content}
      </span>
      {anchor ? (
        <Bubble anchor={anchor} className={className}>
          {content}
        </Bubble>
      ) : null}
    </>
  );
}
