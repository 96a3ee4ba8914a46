"use client";

import * as React from "react";
import { ChevronDownIcon } from "lucide-react";
import { useDisabledUntilHydrated } from "@/components/use-hydrated";
import { cn } from "@/lib/utils";

/**
 * The browser's own select, styled like the inputs: for a plain choice among short text options
 * (the logs' filters, the key list's status). It needs no script to draw or to open, and phones
 * show their own picker. A choice that needs more than text (a role and what it may do) takes the
 * Radix select of ./select.tsx.
 */
function NativeSelect({ className, wrapperClassName, disabled, ...props }: React.ComponentProps<"select"> & { wrapperClassName?: string }) {
  const untilHydrated = useDisabledUntilHydrated(disabled);
  return (
    <div data-slot="native-select-wrapper" className={cn("relative min-w-0", wrapperClassName)}>
      <select
        data-slot="native-select"
        {...untilHydrated}
        className={cn(
          "h-9 w-full min-w-0 appearance-none truncate rounded-md border border-input bg-transparent py-2 pr-9 pl-3 text-sm shadow-xs transition-[color,box-shadow] outline-none disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30 dark:hover:bg-input/50",
          "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
          "aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40",
          className,
        )}
        {...props}
      />
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground opacity-50" aria-hidden />
    </div>
  );
}

export { NativeSelect };
