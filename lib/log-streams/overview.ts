import "server-only";
import type { Mode } from "@/core/enums";
import type { LogStreamKind, LogStreamSource } from "@/core/log-streams";
import { getDb } from "@/db";
import { LAG_COUNT_CAP, streamLag } from "@/db/queries/log-stream-lag";
import { listLogStreams } from "@/db/queries/log-stream-settings";
import { destinationSummary } from "./labels";

/** A stream is "behind" once its oldest undelivered event is older than this: a batch normally leaves within seconds. */
const BEHIND_AFTER_MS = 60_000;

export type LogStreamState = "paused" | "failing" | "behind" | "delivering";

/** A stream as its page shows it (docs/features/log-streams.md#the-page): no credential, only its hint. */
export interface LogStreamOverview {
  id: string;
  name: string;
  kind: LogStreamKind;
  destination: string;
  secretHint: string;
  sources: LogStreamSource[];
  mode: Mode;
  state: LogStreamState;
  createdAt: Date;
  pausedAt: Date | null;
  deliveredAt: Date | null;
  failingSince: Date | null;
  failedAttempts: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  nextAttemptAt: Date | null;
  droppedEvents: number;
  /** Its oldest undelivered event and how many wait, counted up to `waitingCap`. */
  lag: { oldestAt: Date | null; waiting: number; waitingCap: number };
}

function stateOf(stream: { pausedAt: Date | null; failingSince: Date | null }, oldestAt: Date | null, now: number): LogStreamState {
  if (stream.pausedAt) return "paused";
  if (stream.failingSince) return "failing";
  return oldestAt && now - oldestAt.getTime() > BEHIND_AFTER_MS ? "behind" : "delivering";
}

export async function logStreamsOverview(orgId: string, now = Date.now()): Promise<LogStreamOverview[]> {
  const db = getDb();
  const streams = await listLogStreams(db, orgId);
  const lags = await Promise.all(streams.map((stream) => streamLag(db, { ...stream, orgId })));
  return streams.map((stream, i) => {
    const lag = lags[i]!;
    return {
      id: stream.id,
      name: stream.name,
      kind: stream.kind,
      destination: destinationSummary(stream.settings),
      secretHint: stream.secretHint,
      sources: stream.sources,
      mode: stream.mode,
      state: stateOf(stream, lag.oldestAt, now),
      createdAt: stream.createdAt,
      pausedAt: stream.pausedAt,
      deliveredAt: stream.deliveredAt,
      failingSince: stream.failingSince,
      failedAttempts: stream.failedAttempts,
      lastError: stream.lastError,
      lastErrorAt: stream.lastErrorAt,
      nextAttemptAt: stream.nextAttemptAt,
      droppedEvents: stream.droppedEvents,
      lag: { ...lag, waitingCap: LAG_COUNT_CAP },
    };
  });
}
