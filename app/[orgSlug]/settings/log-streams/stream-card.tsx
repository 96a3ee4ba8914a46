import { AlertTriangle } from "lucide-react";
import { ModeBadge } from "@/components/mode-badge";
import { Fact } from "@/components/fact";
import { RelativeTime } from "@/components/relative-time";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { LOG_STREAM_BACKLOG_DAYS } from "@/core/log-streams";
import { DESTINATION_LABELS, SOURCE_LABELS } from "@/lib/log-streams/labels";
import type { LogStreamOverview, LogStreamState } from "@/lib/log-streams/overview";
import { StreamControls } from "./stream-controls";

const STATES: Record<LogStreamState, { label: string; variant: BadgeVariant }> = {
  delivering: { label: "Delivering", variant: "success" },
  behind: { label: "Catching up", variant: "warning" },
  failing: { label: "Failing", variant: "destructive" },
  paused: { label: "Paused", variant: "secondary" },
};

const count = (n: number) => n.toLocaleString("en-US");

/** How far behind the stream is, in events and in time. */
function Lag({ lag }: { lag: LogStreamOverview["lag"] }) {
  if (lag.waiting === 0 || !lag.oldestAt) return <>Up to date</>;
  const waiting =
    lag.waiting > lag.waitingCap ? `More than ${count(lag.waitingCap)} events` : `${count(lag.waiting)} ${lag.waiting === 1 ? "event" : "events"}`;
  return (
    <>
      {waiting} waiting, the oldest from <RelativeTime value={lag.oldestAt} />
    </>
  );
}

/** One stream: where it goes, what it carries, how it is doing, and its controls. */
export function StreamCard({ orgId, stream }: { orgId: string; stream: LogStreamOverview }) {
  const destination = DESTINATION_LABELS[stream.kind];
  const state = STATES[stream.state];
  return (
    <Card aria-labelledby={`${stream.id}-name`}>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={`${stream.id}-name`} className="text-base font-semibold">
            {stream.name}
          </h2>
          <Badge variant={state.variant}>{state.label}</Badge>
          <ModeBadge mode={stream.mode} />
        </div>
        <p className="text-sm text-muted-foreground">
          <span className="font-medium text-foreground">{destination.name}</span> · <span className="break-all font-mono text-xs">{stream.destination}</span>
          {stream.secretHint ? (
            <>
              {" "}
              · {destination.credential} <span className="font-mono text-xs">{stream.secretHint}</span>
            </>
          ) : null}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Fact term="Carries">{stream.sources.map((source) => SOURCE_LABELS[source].name).join(", ")}</Fact>
          <Fact term="Behind">
            {stream.pausedAt ? (
              <>
                Paused <RelativeTime value={stream.pausedAt} />; <Lag lag={stream.lag} />
              </>
            ) : (
              <Lag lag={stream.lag} />
            )}
          </Fact>
          <Fact term="Last delivery">
            <RelativeTime value={stream.deliveredAt} fallback="Nothing delivered yet" />
          </Fact>
        </dl>
        {stream.lastError ? <LastError stream={stream} /> : null}
        {stream.droppedEvents > 0 ? (
          <p className="text-sm text-muted-foreground">
            {count(stream.droppedEvents)} {stream.droppedEvents === 1 ? "event was" : "events were"} dropped undelivered after {LOG_STREAM_BACKLOG_DAYS} days.
          </p>
        ) : null}
        <StreamControls orgId={orgId} stream={{ id: stream.id, name: stream.name, paused: stream.pausedAt !== null }} />
      </CardContent>
    </Card>
  );
}

/** What the destination said last, and, while the stream fails, since when and when it tries again. */
function LastError({ stream }: { stream: LogStreamOverview }) {
  const failing = stream.failingSince !== null;
  return (
    <div
      role={failing ? "alert" : undefined}
      className={failing ? "rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm" : "rounded-md border p-3 text-sm"}
    >
      <p className="flex items-start gap-2 font-medium">
        <AlertTriangle className={failing ? "mt-0.5 size-4 shrink-0 text-destructive" : "mt-0.5 size-4 shrink-0 text-muted-foreground"} aria-hidden />
        <span className="break-words">{stream.lastError}</span>
      </p>
      <p className="mt-1 pl-6 text-muted-foreground">
        <RelativeTime value={stream.lastErrorAt} />
        {failing ? (
          <>
            {" "}
            · failing since <RelativeTime value={stream.failingSince} />, {count(stream.failedAttempts)} {stream.failedAttempts === 1 ? "attempt" : "attempts"}
            {stream.nextAttemptAt && !stream.pausedAt ? (
              <>
                ; next <RelativeTime value={stream.nextAttemptAt} />
              </>
            ) : null}
          </>
        ) : null}
      </p>
    </div>
  );
}
