"use client";

import * as React from "react";
import { Switch as SwitchPrimitive } from "radix-ui";
import { useDisabledUntilHydrated } from "@/components/use-hydrated";
import { cn } from "@/lib/utils";

function Switch({ className, disabled, ...props }: React.ComponentProps<typeof SwitchPrimitive.Root>) {
  const untilHydrated = useDisabledUntilHydrated(disabled);
  return (
    <SwitchPrimitive.Root
      data-slot="switch"
      {...untilHydrated}
      className={cn(
        "peer inline-flex h-5 w-9 shrink-0 items-center rounded-full border border-transparent shadow-xs transition-all outline-none disabled:cursor-not-allowed disabled:opacity-50",
        "data-[state=checked]:bg-primary data-[state=unchecked]:bg-input dark:data-[state=unchecked]:bg-input/80",
        "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb
        data-slot="switch-thumb"
        className="pointer-events-none block size-4 rounded-full bg-background ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0 dark:data-[state=checked]:bg-primary-foreground"
      />
    </SwitchPrimitive.Root>
  );
}

export { Switch };
