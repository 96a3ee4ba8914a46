"use client";

import { ChevronsUpDown } from "lucide-react";
import { useEffect } from "react";
import { useLoadOnIntent } from "@/components/use-load-on-intent";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LAST_ORG_COOKIE } from "@/lib/last-org";
import { PLANS } from "@/lib/plans/catalog";

export interface OrgOption {
  slug: string;
  name: string;
  plan: keyof typeof PLANS;
  role: string;
}

const loadMenu = () => import("@/components/org-switcher-menu").then((module) => module.OrgSwitcherMenu);

export function OrgSwitcher({ current, organizations }: { current: OrgOption; organizations: OrgOption[] }) {
  useEffect(() => {
    document.cookie = `${LAST_ORG_COOKIE}=${encodeURIComponent(current.slug)}; path=/; max-age=31536000; samesite=lax`;
  }, [current.slug]);
  const menu = useLoadOnIntent(loadMenu);

  // Named by its visible text (organization, plan) after a prefix for screen readers, so the name
  // holds what is on screen, as speech-input users say it; it announces as a menu button.
  const face = (
    <>
      <span aria-hidden className="flex size-6 shrink-0 items-center justify-center rounded-md bg-secondary text-xs font-semibold">
        {current.name.slice(0, 1).toUpperCase()}
      </span>
      <span className="sr-only">Organization: </span>
      <span className="min-w-0 max-w-[10rem] truncate font-medium">{current.name}</span>{" "}
      <Badge variant="secondary" className="hidden sm:inline-flex">
        {PLANS[current.plan].label}
      </Badge>
      <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden />
    </>
  );
  const look = { variant: "ghost", className: "min-w-0 shrink gap-2 px-2" } as const;
  if (menu.Part) {
    const trigger = (
      <Button {...look} autoFocus={menu.focusOnArrival}>
        {face}
      </Button>
    );
    return <menu.Part trigger={trigger} current={current} organizations={organizations} defaultOpen={menu.openOnArrival} />;
  }
  return (
    <Button {...look} type="button" aria-haspopup="menu" {...menu.triggerProps}>
      {face}
    </Button>
  );
}
