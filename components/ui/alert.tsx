import * as React from "react";
import { cn } from "@/lib/utils";

const BASE =
  "relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[calc(var(--spacing)*4)_1fr] has-[>svg]:gap-x-3 [&>svg]:size-4 [&>svg]:translate-y-0.5 [&>svg]:text-current";

const VARIANTS = {
  default: "bg-card text-card-foreground",
  destructive: "border-destructive/40 bg-destructive/5 text-destructive *:data-[slot=alert-description]:text-destructive",
  warning: "border-warning/50 bg-warning/10 text-warning-foreground *:data-[slot=alert-description]:text-warning-foreground",
  success: "border-success/40 bg-success/10 text-success-foreground *:data-[slot=alert-description]:text-success-foreground",
} as const;

export type AlertVariant = keyof typeof VARIANTS;

/**
 * A callout: an optional leading icon (`<Icon className="size-4" aria-hidden />`), an AlertTitle
 * and an AlertDescription. It has no role by default; pass role="alert" for errors that appear
 * after a user action so screen readers announce them.
 */
function Alert({ className, variant = "default", ...props }: React.ComponentProps<"div"> & { variant?: AlertVariant }) {
  return <div data-slot="alert" data-variant={variant} className={cn(BASE, VARIANTS[variant], className)} {...props} />;
}

function AlertTitle({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="alert-title" className={cn("col-start-2 min-h-4 font-medium tracking-tight", className)} {...props} />;
}

function AlertDescription({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="alert-description"
      className={cn("col-start-2 grid justify-items-start gap-1 text-sm text-muted-foreground [&_p]:leading-relaxed", className)}
      {...props}
    />
  );
}

export { Alert, AlertDescription, AlertTitle };
