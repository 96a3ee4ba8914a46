import * as React from "react";
import { cn } from "@/lib/utils";

type PageHeaderProps = Omit<React.ComponentProps<"div">, "title"> & {
  /** The page's `<h1>`. */
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons on the right (under the title on phones). */
  actions?: React.ReactNode;
  /** Above the title, e.g. a "back to API keys" link. */
  children?: React.ReactNode;
};

export function PageHeader({ title, description, actions, children, className, ...props }: PageHeaderProps) {
  return (
    <div data-slot="page-header" className={cn("flex flex-col gap-2", className)} {...props}>
      {children}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
          {description ? <div className="max-w-2xl text-sm text-muted-foreground">{description}</div> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </div>
  );
}
