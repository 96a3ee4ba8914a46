"use client";

import * as React from "react";
import { Pause, Play, Radio } from "lucide-react";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { LIVE_ROWS_KEPT, type LiveTailEnd, type LiveTailSkipped } from "@/lib/live-tail/protocol";
import { onDemand } from "@/components/on-demand";
import { cn } from "@/lib/utils";
import type { AuditRowsProps, KeyEndings } from "./audit-rows";

// The rows as they first show are rendered on the server (the page's `initialRows`); the client
// renders them itself only once live requests arrive, with this code, loaded when Live is turned on.
const AuditRows = onDemand<AuditRowsProps>(() => import("./audit-rows").then((module) => module.AuditRows));

type Connection = "connecting" | "open" | "reconnecting";

/** Newest first, no row twice, at most what the page keeps. */
function merged(newer: AuditLogRowDto[], older: AuditLogRowDto[]): AuditLogRowDto[] {
  const seen = new Set<number>();
  return [...newer, ...older].filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, LIVE_ROWS_KEPT);
}

/**
 * The audit log's rows, and its "Live" switch (docs/features/live-tail.md): new requests matching the page's
 * filters stream in at the top (server-sent events from ./live), held while paused, at most
 * LIVE_ROWS_KEPT on screen. Until a live request arrives it shows `initialRows`, the same rows
 * rendered on the server. The browser's EventSource reconnects by itself and sends the last row
 * it got, so a dropped connection resumes without gaps or repeats.
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
  const [live, setLive] = React.useState(false);
  const [paused, setPaused] = React.useState(false);
  const [connection, setConnection] = React.useState<Connection>("connecting");
  const [liveRows, setLiveRows] = React.useState<AuditLogRowDto[]>([]);
  const [held, setHeld] = React.useState<AuditLogRowDto[]>([]);
  const [notice, setNotice] = React.useState<{ kind: "ended" | "skipped"; message: string } | null>(null);
  // Where a new connection starts: after the last row this view got (ids are the log's commit order, not its time order).
  const [cursor, setCursor] = React.useState(since);
  const startAfter = React.useEffectEvent(() => cursor);
  const receive = React.useEffectEvent((row: AuditLogRowDto) => {
    setCursor((current) => Math.max(current, row.id));
    if (paused) setHeld((current) => merged([row], current));
    else setLiveRows((current) => merged([row], current));
  });

  React.useEffect(() => {
    if (!live) return;
    const after = new URLSearchParams(query);
    after.set("since", String(startAfter()));
    const source = new EventSource(`/${orgSlug}/settings/api/audit/live?${after}`);
    source.onopen = () => setConnection("open");
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        setNotice({ kind: "ended", message: "The live view could not connect. Check your connection, then turn Live on again." });
        setLive(false);
      } else {
        setConnection("reconnecting");
      }
    };
    source.addEventListener("request", (event) => receive(JSON.parse(event.data) as AuditLogRowDto));
    source.addEventListener("skipped", (event) => setNotice({ kind: "skipped", message: (JSON.parse(event.data) as LiveTailSkipped).message }));
    source.addEventListener("end", (event) => {
      source.close();
      setNotice({ kind: "ended", message: (JSON.parse(event.data) as LiveTailEnd).message });
      setLive(false);
    });
    return () => source.close();
  }, [live, orgSlug, query]);

  function toggleLive(on: boolean) {
    if (on) AuditRows.prefetch();
    setLive(on);
    setConnection("connecting");
    setPaused(false);
    setNotice(null);
    if (!on) {
      setLiveRows((current) => merged(held, current));
      setHeld([]);
    }
  }

  function togglePause() {
    if (paused) {
      setLiveRows((current) => merged(held, current));
      setHeld([]);
    }
    setPaused(!paused);
  }

  const shown = merged(liveRows, rows);
  const status = !live
    ? null
    : paused
      ? held.length === 0
        ? "Paused"
        : `Paused: ${held.length === LIVE_ROWS_KEPT ? `${LIVE_ROWS_KEPT}+` : held.length} new ${held.length === 1 ? "request" : "requests"} held`
      : connection === "open"
        ? liveRows.length === 0
          ? "Live: waiting for new requests"
          : `Live: ${liveRows.length} new ${liveRows.length === 1 ? "request" : "requests"}`
        : connection === "reconnecting"
          ? "Reconnecting…"
          : "Connecting…";

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3 sm:px-6">
        <div className="flex items-center gap-2.5">
          <Switch id="audit-live" {...AuditRows.prefetchHandlers} checked={live} onCheckedChange={toggleLive} disabled={blocked !== null} aria-describedby="audit-live-status" />
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
            <span className="truncate">{status ?? blocked ?? "Turn on to see new requests as they arrive."}</span>
          </p>
          {live ? (
            <Button variant="outline" size="sm" onClick={togglePause}>
              {paused ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />}
              {paused ? "Resume" : "Pause"}
            </Button>
          ) : null}
        </div>
      </div>
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
