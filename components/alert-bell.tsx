"use client";

import { Bell, CheckCheck } from "lucide-react";
import Link from "next/link";
import { useOptimistic, useState, useTransition } from "react";
import { toast } from "sonner";
import type { AlertDto } from "@/db/queries/alerts";
import { AlertList } from "@/components/alert-list";
import type { ConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

/** The route's "mark as read" (app/[orgSlug]/settings/alerts/actions.ts): one alert or all. */
export type MarkAlertsReadAction = ConfirmAction<{ orgId: string; alertId: number | "all" }, { matched: number }>;

/**
 * The alerts' bell (docs/features/alerts.md#the-bell-and-the-banner): the organization's newest alerts with the reader's unread count. Opening an
 * alert's link marks it read; "Mark all as read" marks every alert of the organization.
 */
export function AlertBell({ orgId, orgSlug, alerts, unread, markRead }: { orgId: string; orgSlug: string; alerts: AlertDto[]; unread: number; markRead: MarkAlertsReadAction }) {
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
  const label = shown.unread > 0 ? `Alerts, ${shown.unread} unread` : "Alerts";
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label}>
          <Bell className="size-5" aria-hidden />
          {shown.unread > 0 ? (
            <span aria-hidden className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold leading-none text-white tabular-nums">
              {shown.unread > 99 ? "99+" : shown.unread}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <h2 className="text-sm font-semibold">Alerts</h2>
          <Button variant="ghost" size="sm" disabled={shown.unread === 0} onClick={() => mark("all")}>
            <CheckCheck className="size-4" aria-hidden /> Mark all as read
          </Button>
        </div>
        {shown.alerts.length === 0 ? (
          <div className="px-4 py-8 text-center">
            <p className="text-sm font-medium">No alerts yet</p>
            <p className="mt-1 text-sm text-muted-foreground">You will see quota thresholds, rate-limit bursts and expiring keys here.</p>
          </div>
        ) : (
          <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
            <AlertList
              alerts={shown.alerts}
              orgSlug={orgSlug}
              compact
              onOpen={(alert) => {
                setOpen(false);
                if (!alert.read) mark(alert.id);
              }}
            />
          </div>
        )}
        <div className="border-t px-4 py-2.5 text-center">
          <Link href={`/${orgSlug}/settings/alerts`} onClick={() => setOpen(false)} className="text-sm font-medium text-primary hover:underline">
            All alerts and settings
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
