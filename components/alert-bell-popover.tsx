"use client";

import { CheckCheck } from "lucide-react";
import Link from "next/link";
import type { ReactElement } from "react";
import type { AlertDto } from "@/db/queries/alerts";
import { AlertList } from "@/components/alert-list";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

/** The bell's popover around its trigger: the newest alerts; loaded on intent (components/alert-bell.tsx). */
export function AlertBellPopover({
  trigger,
  open,
  onOpenChange,
  orgSlug,
  alerts,
  unread,
  mark,
}: {
  trigger: ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  orgSlug: string;
  alerts: AlertDto[];
  unread: number;
  mark: (alertId: number | "all") => void;
}) {
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <h2 className="text-sm font-semibold">Alerts</h2>
          <Button variant="ghost" size="sm" disabled={unread === 0} onClick={() => mark("all")}>
            <CheckCheck className="size-4" aria-hidden /> Mark all as read
          </Button>
        </div>
        {alerts.length === 0 ? (
          <div className="px-4 py-8 text-center">
            <p className="text-sm font-medium">No alerts yet</p>
            <p className="mt-1 text-sm text-muted-foreground">You will see quota thresholds, rate-limit bursts and expiring keys here.</p>
          </div>
        ) : (
          <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
            <AlertList
              alerts={alerts}
              orgSlug={orgSlug}
              compact
              onOpen={(alert) => {
                onOpenChange(false);
                if (!alert.read) mark(alert.id);
              }}
            />
          </div>
        )}
        <div className="border-t px-4 py-2.5 text-center">
          <Link href={`/${orgSlug}/settings/alerts`} onClick={() => onOpenChange(false)} className="text-sm font-medium text-primary hover:underline">
            All alerts and settings
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
