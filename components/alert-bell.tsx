"use client";

import { Bell } from "lucide-react";
import { useOptimistic, useState, useTransition } from "react";
import { toast } from "@/components/toast";
import type { AlertDto } from "@/db/queries/alerts";
import { useLoadOnIntent } from "@/components/use-load-on-intent";
import type { ConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";

/** The route's "mark as read" (app/[orgSlug]/settings/alerts/actions.ts): one alert or all. */
export type MarkAlertsReadAction = ConfirmAction<{ orgId: string; alertId: number | "all" }, { matched: number }>;

const loadPopover = () => import("@/components/alert-bell-popover").then((module) => module.AlertBellPopover);

/**
 * The alerts' bell (docs/features/alerts.md#the-bell-and-the-banner): the organization's newest alerts with the reader's unread count. Opening an
 * alert's link marks it read; "Mark all as read" marks every alert of the organization. The
 * count is drawn here; the list comes on intent (components/use-load-on-intent.ts).
 */
export function AlertBell({
  orgId,
  orgSlug,
  alerts,
  unread,
  markRead,
}: {
  orgId: string;
  orgSlug: string;
  alerts: AlertDto[];
  unread: number;
  markRead: MarkAlertsReadAction;
}) {
  const [open, setOpen] = useState(false);
  const [, startTransition] = useTransition();
  const [shown, markShown] = useOptimistic({ alerts, unread }, (state, alertId: number | "all") => ({
    alerts: state.alerts.map((alert) => (alertId === "all" || alert.id === alertId ? { ...alert, read: true } : alert)),
    unread: alertId === "all" ? 0 : Math.max(0, state.unread - (state.alerts.some((a) => a.id === alertId && !a.read) ? 1 : 0)),
  }));
  const mark = (alertId: number | "all") =>
    startTransition(async () => {
      markShown(alertId);
      const result = await markRead(null, { orgId, alertId });
      if (!result.ok) toast.error(result.error);
    });
  const popover = useLoadOnIntent(loadPopover, () => setOpen(true));
  const label = shown.unread > 0 ? `Alerts, ${shown.unread} unread` : "Alerts";
  const look = { variant: "ghost", size: "icon", className: "relative", "aria-label": label } as const;
  const face = (
    <>
      <Bell className="size-5" aria-hidden />
      {shown.unread > 0 ? (
        <span
          aria-hidden
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold leading-none text-white tabular-nums"
        >
          {shown.unread > 99 ? "99+" : shown.unread}
        </span>
      ) : null}
    </>
  );
  if (popover.Part) {
    const trigger = (
      <Button {...look} autoFocus={popover.focusOnArrival}>
        {face}
      </Button>
    );
    return <popover.Part trigger={trigger} open={open} onOpenChange={setOpen} orgSlug={orgSlug} alerts={shown.alerts} unread={shown.unread} mark={mark} />;
  }
  return (
    <Button {...look} type="button" aria-haspopup="dialog" {...popover.triggerProps}>
      {face}
    </Button>
  );
}
