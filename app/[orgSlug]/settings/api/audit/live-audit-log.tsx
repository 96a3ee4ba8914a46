"use client";

import * as React from "react";
import { Pause, Play, Radio } from "lucide-react";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { onDemand } from "@/components/on-demand";
import { cn } from "@/lib/utils";
import type { AuditRowsProps, KeyEndings } from "./audit-rows";
import { liveStatus, merged, useLiveTail, type LiveTail } from "./use-live-tail";

// The rows as they first show are rendered on the server (the page's `initialRows`); the client
// renders them itself only once live requests arrive, with this code, loaded when Live is turned on.
const AuditRows = onDemand<AuditRowsProps>(() => import("./audit-rows").then((module) => module.AuditRows));

/**
 * The audit log's rows, and its "Live" switch (docs/features/live-tail.md): new requests matching the page's
 * filters stream in at the top (server-sent events from ./live), held while paused, at most
 * LIVE_ROWS_KEPT on screen (the stream: ./use-live-tail.ts). Until a live request arrives it shows
 * `initialRows`, the same rows rendered on the server.
 */
export function LiveAuditLog({
  orgSlug,
  query,
  rows,
  initialRows,
  since,
  endings,
  blocked,
  empty,
}: {
  orgSlug: string;
  /** The page's filters as URL parameters: the stream applies the same. */
  query: string;
  rows: AuditLogRowDto[];
  /** `rows` as the server rendered them (./audit-rows.tsx). */
  initialRows: React.ReactNode;
  /** The log's newest row id when the page was read: the first connection starts after it. */
  since: number;
  endings: KeyEndings;
  /** Why this view cannot go live (an older page, a range in the past), or null. */
  blocked: string | null;
  /** What the page shows without rows, when not live. */
  empty: React.ReactNode;
}) {
  const tail = useLiveTail({ orgSlug, query, since });
  const { live, liveRows, notice } = tail;
  const shown = merged(liveRows, rows);

  return (
    <>
      <LiveSwitchBar tail={tail} blocked={blocked} />
      {notice ? (
        <Alert variant={notice.kind === "ended" ? "warning" : "default"} className="rounded-none border-x-0 border-t-0">
          <AlertDescription>{notice.message}</AlertDescription>
        </Alert>
      ) : null}
      {shown.length > 0 ? (
        <div className={cn(live && "[&_tbody_tr:first-child]:bg-muted/40")}>
          {liveRows.length === 0 ? initialRows : <AuditRows orgSlug={orgSlug} rows={shown} endings={endings} loading={initialRows} />}
        </div>
      ) : live ? (
        <p className="px-6 py-10 text-center text-sm text-muted-foreground">New requests matching these filters appear here as they are answered.</p>
      ) : (
        empty
      )}
    </>
  );
}

/** The "Live" switch, what the tail is doing, and Pause or Resume while live. */
function LiveSwitchBar({ tail, blocked }: { tail: LiveTail; blocked: string | null }) {
  const { live, paused, connection, toggleLive, togglePause } = tail;
  function turnLive(on: boolean) {
    if (on) AuditRows.prefetch();
    toggleLive(on);
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3 sm:px-6">
      <div className="flex items-center gap-2.5">
        <Switch
          id="audit-live"
          {...AuditRows.prefetchHandlers}
          checked={live}
          onCheckedChange={turnLive}
          disabled={blocked !== null}
          aria-describedby="audit-live-status"
        />
        <Label htmlFor="audit-live" className="flex items-center gap-1.5">
          <Radio className="size-4 text-muted-foreground" aria-hidden /> Live
        </Label>
      </div>
      <div className="flex min-w-0 items-center gap-3">
        <p id="audit-live-status" role="status" className="flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
          {live && !paused && connection === "open" ? (
            <span className="relative flex size-2" aria-hidden>
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-500 opacity-60" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
          ) : null}
          <span className="truncate">{liveStatus(tail) ?? blocked ?? "Turn on to see new requests as they arrive."}</span>
        </p>
        {live ? (
          <Button variant="outline" size="sm" onClick={togglePause}>
            {paused ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />}
            {paused ? "Resume" : "Pause"}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
