"use client";

import { useRef, useState, type ComponentType } from "react";

/**
 * A header control whose heavy part (a menu, a popover, and the library behind it) comes when the
 * person shows they may use it (docs/decisions/0063-shared-page-weight.md): the pointer over its
 * trigger, the keyboard on it, a touch. Until then the caller draws the trigger as a plain button
 * with `triggerProps`; a press before the part arrives opens it as soon as it does, and a trigger
 * that has the keyboard's focus keeps it when the part's own trigger replaces it. A part whose open
 * state the caller holds opens through `onPress` instead.
 */
export function useLoadOnIntent<P>(load: () => Promise<ComponentType<P>>, onPress?: () => void) {
  const [Part, setPart] = useState<ComponentType<P> | null>(null);
  /** Pressed before it arrived: the part opens as it mounts. */
  const [openOnArrival, setOpenOnArrival] = useState(false);
  const [focused, setFocused] = useState(false);
  const loading = useRef<Promise<void> | null>(null);
  const start = () => {
    loading.current ??= load().then((part) => setPart(() => part));
  };
  const press = () => {
    setOpenOnArrival(true);
    onPress?.();
    start();
  };
  return {
    Part,
    openOnArrival,
    /** Whether the part's trigger takes the focus as it replaces the plain one. */
    focusOnArrival: focused,
    triggerProps: {
      "aria-expanded": false,
      onPointerEnter: start,
      onTouchStart: start,
      onFocus: () => {
        setFocused(true);
        start();
      },
      onBlur: () => setFocused(false),
      onPointerDown: press,
      onClick: press,
    },
  };
}
