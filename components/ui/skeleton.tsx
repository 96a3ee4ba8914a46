import * as React from "react";
import { cn } from "@/lib/utils";

/** A pulsing placeholder block. Hidden from screen readers: mark the loading region with aria-busy instead. */
function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="skeleton" aria-hidden="true" className={cn("animate-pulse rounded-md bg-foreground/8", className)} {...props} />;
}

export { Skeleton };
