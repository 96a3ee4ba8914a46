"use client";

import { AlertTriangle, CalendarClock, CalendarX, Gauge, ShieldAlert, Timer, Waves, Webhook } from "lucide-react";
import Link from "next/link";
import type { AlertDto } from "@/db/queries/alerts";
import type { AlertKind } from "@/core/enums";
import { RelativeTime } from "@/components/relative-time";
import { describeAlert } from "@/lib/alerts/text";
import { cn } from "@/lib/utils";

const ICONS: Record<AlertKind, typeof Gauge> = {
  quota_threshold: Gauge,
  budget_threshold: Gauge,
  rate_limited: Timer,
  key_expiring: CalendarClock,
  key_expired: CalendarX,
  webhook_disabled: Webhook,
  key_leaked: ShieldAlert,
  // The settings nav's icon for log streams (components/settings-nav.tsx).
  log_stream_backlog_dropped: Waves,
};

/**
 * Alerts as a list (the bell's popover and the Alerts page): what happened, when, and a link to
 * where the reader acts. `onOpen` runs before a link is followed (the bell marks the alert read).
 */
export function AlertList({
  alerts,
  orgSlug,
  onOpen,
  compact = false,
}: {
  alerts: AlertDto[];
  orgSlug: string;
  onOpen?: (alert: AlertDto) => void;
  compact?: boolean;
}) {
  return (
    <ul className="divide-y">
      {alerts.map((alert) => {
        const text = describeAlert(alert, orgSlug);
        const Icon = ICONS[alert.kind] ?? AlertTriangle;
        return (
          <li key={alert.id} className={cn("flex gap-3", compact ? "px-4 py-3" : "py-4 first:pt-0 last:pb-0")}>
            <span
              className={cn(
                "mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full",
                text.tone === "destructive" ? "bg-destructive/10 text-destructive" : "bg-warning/15 text-warning-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden />
            </span>
            <div className="min-w-0 flex-1 space-y-1">
              <p className="flex items-start gap-2 text-sm font-medium">
                <span className="min-w-0 break-words">{text.title}</span>
                {alert.read ? null : <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" role="img" aria-label="Unread" />}
              </p>
              <p className={cn("text-sm text-muted-foreground", compact && "line-clamp-2")}>{text.detail}</p>
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                <RelativeTime value={alert.createdAt} />
                <Link href={text.href} onClick={() => onOpen?.(alert)} className="font-medium text-primary hover:underline">
                  {text.action}
                </Link>
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
