import * as React from "react";
import { cn } from "@/lib/utils";

type EmptyStateProps = Omit<React.ComponentProps<"div">, "title"> & {
  /** A lucide icon, e.g. `<KeyRound className="size-6" aria-hidden />`. */
  icon?: React.ReactNode;
  title: React.ReactNode;
  description?: React.ReactNode;
  /** The heading level of the title (default h2). */
  titleAs?: "h2" | "h3" | "h4";
  /** Actions (buttons, links) under the text. */
  children?: React.ReactNode;
};

/** A centred "nothing here yet" message with an icon, a heading, some text and optional actions. */
export function EmptyState({ icon, title, description, titleAs: Title = "h2", children, className, ...props }: EmptyStateProps) {
  return (
    <div data-slot="empty-state" className={cn("flex flex-col items-center justify-center gap-3 px-6 py-12 text-center text-balance", className)} {...props}>
      {icon ? (
        <div
          className="mb-1 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground [&_svg:not([class*='size-'])]:size-6"
          aria-hidden="true"
        >
          {icon}
        </div>
      ) : null}
      <Title className="text-base font-semibold tracking-tight">{title}</Title>
      {description ? <div className="max-w-md text-sm text-muted-foreground">{description}</div> : null}
      {children ? <div className="mt-2 flex flex-wrap items-center justify-center gap-2">{children}</div> : null}
    </div>
  );
}
