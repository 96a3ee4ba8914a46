"use client";

import * as React from "react";
import { Slot } from "radix-ui";
import { useDisabledUntilHydrated } from "@/components/use-hydrated";
import { buttonVariants, type ButtonSize, type ButtonVariant } from "@/components/ui/button-variants";

type ButtonProps = React.ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (a Link, an `<a>`) with the button's styles and props instead of a `<button>`. */
  asChild?: boolean;
};

/**
 * A button that acts through JavaScript (a click handler, or a submit: every form here sends its
 * data from `onSubmit`) is disabled until the page can act on it; a link drawn as a button is not.
 * Before that a click would be swallowed, and a form's native submission would be a GET of the page
 * with its fields, a password among them, in the address.
 */
function Button({ className, variant = "default", size = "default", asChild = false, disabled, ...props }: ButtonProps) {
  const actsThroughScript = !asChild && (props.onClick !== undefined || props.type === undefined || props.type === "submit");
  const untilHydrated = useDisabledUntilHydrated(disabled);
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      data-slot="button"
      data-variant={variant}
      data-size={size}
      className={buttonVariants({ variant, size, className })}
      {...props}
      {...(actsThroughScript ? untilHydrated : { disabled })}
    />
  );
}

export { Button, type ButtonProps, type ButtonSize, type ButtonVariant };
