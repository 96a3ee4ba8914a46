"use client";

import { useLoadOnIntent } from "@/components/use-load-on-intent";
import type { ConfirmAction } from "@/components/use-confirm-action";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { initials } from "@/lib/initials";

/** Server actions that take no input; on success they redirect to /signin, so a result is a refusal. */
export type SignOutAction = ConfirmAction<Record<string, never>, unknown>;

const loadItems = () => import("@/components/user-menu-items").then((module) => module.UserMenuItems);

export function UserMenu({
  name,
  email,
  signOutAction,
  signOutEverywhereAction,
}: {
  name: string;
  email: string;
  signOutAction: SignOutAction;
  signOutEverywhereAction: SignOutAction;
}) {
  const menu = useLoadOnIntent(loadItems);
  const shown = initials(name);
  // The accessible name starts with the initials the button shows (WCAG 2.5.3, label in name).
  const look = { variant: "ghost", size: "icon", className: "rounded-full", "aria-label": `${shown}: Account menu for ${name}` } as const;
  const face = (
    <Avatar className="size-8">
      <AvatarFallback>{shown}</AvatarFallback>
    </Avatar>
  );
  if (menu.Part) {
    const trigger = (
      <Button {...look} autoFocus={menu.focusOnArrival}>
        {face}
      </Button>
    );
    return (
      <menu.Part
        trigger={trigger}
        name={name}
        email={email}
        signOutAction={signOutAction}
        signOutEverywhereAction={signOutEverywhereAction}
        defaultOpen={menu.openOnArrival}
      />
    );
  }
  return (
    <Button {...look} type="button" aria-haspopup="menu" {...menu.triggerProps}>
      {face}
    </Button>
  );
}
