import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { logStreams } from "@/db/schema";

/**
 * The log streams page's reads and changes (docs/features/log-streams.md#the-page): each stream
 * as people see it, never its sealed credentials, only their hint.
 */

const SHOWN = {
  id: logStreams.id,
  name: logStreams.name,
  kind: logStreams.kind,
  settings: logStreams.settings,
  secretHint: logStreams.secretHint,
  sources: logStreams.sources,
  mode: logStreams.mode,
  pausedAt: logStreams.pausedAt,
  createdAt: logStreams.createdAt,
  deliveredAt: logStreams.deliveredAt,
  failingSince: logStreams.failingSince,
  failedAttempts: logStreams.failedAttempts,
  lastError: logStreams.lastError,
  lastErrorAt: logStreams.lastErrorAt,
  nextAttemptAt: logStreams.nextAttemptAt,
  droppedEvents: logStreams.droppedEvents,
  // Where the stream got to, for how far behind it is (./log-stream-lag.ts).
  requestsAfter: logStreams.requestsAfter,
  activityAfterTx: logStreams.activityAfterTx,
  activityAfterId: logStreams.activityAfterId,
  alertsAfterTx: logStreams.alertsAfterTx,
  alertsAfterId: logStreams.alertsAfterId,
};

export type ShownLogStream = Awaited<ReturnType<typeof listLogStreams>>[number];

/** The organization's streams, oldest first. */
export async function listLogStreams(db: DbOrTx, orgId: string) {
  return db.select(SHOWN).from(logStreams).where(eq(logStreams.orgId, orgId)).orderBy(asc(logStreams.createdAt), asc(logStreams.id));
}

/** One stream of the organization, locked for a change; null when it has none by that id. */
export async function lockLogStream(tx: DbOrTx, orgId: string, id: string) {
  const [stream] = await tx
    .select({ ...SHOWN, sealedSecrets: logStreams.sealedSecrets })
    .from(logStreams)
    .where(and(eq(logStreams.orgId, orgId), eq(logStreams.id, id)))
    .for("update");
  return stream ?? null;
}

export async function countLogStreams(tx: DbOrTx, orgId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(logStreams).where(eq(logStreams.orgId, orgId));
  return row?.n ?? 0;
}

export async function deleteLogStream(tx: DbOrTx, stream: { id: string; orgId: string }): Promise<void> {
  await tx.delete(logStreams).where(and(eq(logStreams.orgId, stream.orgId), eq(logStreams.id, stream.id)));
}
