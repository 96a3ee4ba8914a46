import * as React from "react";
import { Slot } from "radix-ui";
import { cn } from "@/lib/utils";

// The shared look is the .ui-badge class (app/globals.css): one short class in every badge's markup.
const BASE = "ui-badge";

const VARIANTS = {
  default: "border-transparent bg-primary text-primary-foreground [a&]:hover:bg-primary/90",
  secondary: "border-transparent bg-secondary text-secondary-foreground [a&]:hover:bg-secondary/90",
  destructive:
    "border-transparent bg-destructive text-destructive-foreground focus-visible:ring-destructive/20 dark:bg-destructive/60 [a&]:hover:bg-destructive/90",
  outline: "text-foreground [a&]:hover:bg-accent [a&]:hover:text-accent-foreground",
  success: "border-success/30 bg-success/10 text-success-foreground [a&]:hover:bg-success/20",
  warning: "border-warning/40 bg-warning/15 text-warning-foreground [a&]:hover:bg-warning/25",
} as const;

export type BadgeVariant = keyof typeof VARIANTS;

function badgeVariants({ variant = "default", className }: { variant?: BadgeVariant | null; className?: string } = {}) {
  return cn(BASE, VARIANTS[variant ?? "default"], className);
}

type BadgeProps = React.ComponentProps<"span"> & { variant?: BadgeVariant; asChild?: boolean };

function Badge({ className, variant = "default", asChild = false, ...props }: BadgeProps) {
  const Comp = asChild ? Slot.Root : "span";
  return <Comp data-slot="badge" data-variant={variant} className={badgeVariants({ variant, className })} {...props} />;
}

export { Badge, badgeVariants, type BadgeProps };
