import "server-only";
import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { logStreams } from "@/db/schema";
import type { Mode } from "@/core/enums";
import type { DestinationSettings, LogStreamKind, LogStreamSource } from "@/core/log-streams";

/** A stream as its delivery needs it: where, what, its sealed credentials and its cursors. */
export interface StreamToDeliver {
  id: string;
  orgId: string;
  kind: LogStreamKind;
  settings: DestinationSettings;
  sealedSecrets: string;
  sources: LogStreamSource[];
  mode: Mode;
  requestsAfter: number;
  activityAfterTx: string;
  activityAfterId: number;
  alertsAfterTx: string;
  alertsAfterId: number;
  failedAttempts: number;
  failingSince: Date | null;
}

export type NewLogStream = typeof logStreams.$inferInsert;

export async function insertLogStream(db: DbOrTx, stream: NewLogStream): Promise<void> {
  await db.insert(logStreams).values(stream);
}

const TO_DELIVER = {
  id: logStreams.id,
  orgId: logStreams.orgId,
  kind: logStreams.kind,
  settings: logStreams.settings,
  sealedSecrets: logStreams.sealedSecrets,
  sources: logStreams.sources,
  mode: logStreams.mode,
  requestsAfter: logStreams.requestsAfter,
  activityAfterTx: logStreams.activityAfterTx,
  activityAfterId: logStreams.activityAfterId,
  alertsAfterTx: logStreams.alertsAfterTx,
  alertsAfterId: logStreams.alertsAfterId,
  failedAttempts: logStreams.failedAttempts,
  failingSince: logStreams.failingSince,
};

/** No process has the stream's turn at `now`: its lease was given back or has run out. */
export const unleased = (now: Date) => or(isNull(logStreams.leaseUntil), lte(logStreams.leaseUntil, now));

/**
 * The streams not paused whose next attempt is due and whose turn no process has, every
 * organization's, the longest waiting first, each taken for this process until `leaseUntil`: a
 * stream taken by one is skipped by the others, and a process that dies gives it back when the
 * lease ends. One statement per stream, so two processes never take the same.
 */
export async function claimDueStreams(db: DbOrTx, now: Date, leaseUntil: Date): Promise<StreamToDeliver[]> {
  const due = await db
    .select({ id: logStreams.id, orgId: logStreams.orgId })
    .from(logStreams)
    .where(and(isNull(logStreams.pausedAt), or(isNull(logStreams.nextAttemptAt), lte(logStreams.nextAttemptAt, now)), unleased(now)))
    .orderBy(asc(sql`coalesce(${logStreams.nextAttemptAt}, ${logStreams.createdAt})`));
  const claimed: StreamToDeliver[] = [];
  for (const stream of due) {
    const [taken] = await db
      .update(logStreams)
      .set({ leaseUntil })
      .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId), isNull(logStreams.pausedAt), unleased(now)))
      .returning(TO_DELIVER);
    if (taken) claimed.push(taken);
  }
  return claimed;
}

/** The turn is over: the stream may be taken again. */
export async function releaseStream(db: DbOrTx, stream: { id: string; orgId: string }): Promise<void> {
  await db
    .update(logStreams)
    .set({ leaseUntil: null })
    .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId)));
}

/** The destination took a batch: the cursors move past it and the failures are over; `warning`, what it refused of it. */
export async function recordDelivered(
  db: DbOrTx,
  stream: { id: string; orgId: string },
  cursors: { requests: number; activity: { tx: string; id: number }; alerts: { tx: string; id: number } },
  at: Date,
  warning?: string,
): Promise<void> {
  await db
    .update(logStreams)
    .set({
      requestsAfter: cursors.requests,
      activityAfterTx: cursors.activity.tx,
      activityAfterId: cursors.activity.id,
      alertsAfterTx: cursors.alerts.tx,
      alertsAfterId: cursors.alerts.id,
      deliveredAt: at,
      failingSince: null,
      failedAttempts: 0,
      nextAttemptAt: null,
      ...(warning && { lastError: warning, lastErrorAt: at }),
    })
    .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId)));
}

/** The stream passed requests of the other mode only, with nothing to send: its requests cursor moves past them. */
export async function recordPassed(db: DbOrTx, stream: { id: string; orgId: string }, requestsAfter: number): Promise<void> {
  await db
    .update(logStreams)
    .set({ requestsAfter })
    .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId)));
}

/** The destination did not take a batch: what it said, and when to try again. The cursors stay. */
export async function recordFailure(
  db: DbOrTx,
  stream: { id: string; orgId: string; failingSince: Date | null; failedAttempts: number },
  failure: { message: string; at: Date; nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(logStreams)
    .set({
      lastError: failure.message,
      lastErrorAt: failure.at,
      failingSince: stream.failingSince ?? failure.at,
      failedAttempts: stream.failedAttempts + 1,
      nextAttemptAt: failure.nextAttemptAt,
    })
    .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId)));
}

/** Pausing keeps the cursors; resuming makes the stream due at once. */
export async function setPaused(db: DbOrTx, stream: { id: string; orgId: string }, pausedAt: Date | null): Promise<void> {
  await db
    .update(logStreams)
    .set({ pausedAt, nextAttemptAt: null })
    .where(and(eq(logStreams.id, stream.id), eq(logStreams.orgId, stream.orgId)));
}
