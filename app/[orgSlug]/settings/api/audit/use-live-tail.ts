import * as React from "react";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { LIVE_ROWS_KEPT, type LiveTailEnd, type LiveTailSkipped } from "@/lib/live-tail/protocol";

type Connection = "connecting" | "open" | "reconnecting";

/** Newest first, no row twice, at most what the page keeps. */
export function merged(newer: AuditLogRowDto[], older: AuditLogRowDto[]): AuditLogRowDto[] {
  const seen = new Set<number>();
  return [...newer, ...older].filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, LIVE_ROWS_KEPT);
}

/**
 * The live tail's stream for the audit log (docs/features/live-tail.md): while `live`, new requests
 * matching `query` arrive from ./live as server-sent events, held while paused. The browser's
 * EventSource reconnects by itself and sends the last row it got, so a dropped connection resumes
 * without gaps or repeats.
 */
export function useLiveTail({ orgSlug, query, since }: { orgSlug: string; query: string; since: number }) {
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

  return { live, paused, connection, liveRows, held, notice, toggleLive, togglePause };
}

export type LiveTail = ReturnType<typeof useLiveTail>;

/** What the switch's status line says while live, or null when not. */
export function liveStatus({ live, paused, connection, liveRows, held }: LiveTail): string | null {
  if (!live) return null;
  if (paused)
    return held.length === 0
      ? "Paused"
      : `Paused: ${held.length === LIVE_ROWS_KEPT ? `${LIVE_ROWS_KEPT}+` : held.length} new ${held.length === 1 ? "request" : "requests"} held`;
  if (connection === "open")
    return liveRows.length === 0 ? "Live: waiting for new requests" : `Live: ${liveRows.length} new ${liveRows.length === 1 ? "request" : "requests"}`;
  return connection === "reconnecting" ? "Reconnecting…" : "Connecting…";
}
