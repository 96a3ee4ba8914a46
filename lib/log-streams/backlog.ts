import { LOG_STREAM_BACKLOG_DAYS } from "@/core/log-streams";
import { log } from "@/core/log";
import type { DbOrTx } from "@/db";
import { expiredEvents, moveCursorsPastExpired, pausedStreams, type StreamBacklog, type StreamCursors } from "@/db/queries/log-stream-backlog";
import { raiseLogStreamBacklogAlert } from "@/lib/alerts/raise";

const DAY_MS = 24 * 3600_000;

/**
 * The 7-day backlog rule (docs/features/log-streams.md#the-7-day-backlog): the stream's events
 * still undelivered LOG_STREAM_BACKLOG_DAYS after they happened are dropped, oldest first, added to
 * its dropped count, and said in the day's alert, all in one transaction. Anything younger stays,
 * however long the destination is down. Returns the cursors the stream goes on from, or null when
 * its cursors moved since `cursors` were read (the caller's are stale: it leaves the stream to a
 * later turn). `whilePaused`: the pass over paused streams, which moves them only while still paused
 * and no process has their turn.
 */
export async function dropExpiredEvents(
  db: DbOrTx,
  stream: StreamBacklog,
  cursors: StreamCursors,
  now: Date,
  whilePaused = false,
): Promise<StreamCursors | null> {
  const expired = await expiredEvents(db, stream, cursors, new Date(now.getTime() - LOG_STREAM_BACKLOG_DAYS * DAY_MS));
  if (expired.dropped === 0) return cursors;
  const moved = await db.transaction(async (tx) => {
    if (!(await moveCursorsPastExpired(tx, stream, cursors, expired, whilePaused ? now : null))) return false;
    await raiseLogStreamBacklogAlert(tx, { orgId: stream.orgId, streamId: stream.id, dropped: expired.dropped, days: LOG_STREAM_BACKLOG_DAYS, at: now });
    return true;
  });
  if (!moved) return null;
  log.warn(
    { streamId: stream.id, orgId: stream.orgId, dropped: expired.dropped },
    `A log stream dropped events still undelivered after ${LOG_STREAM_BACKLOG_DAYS} days`,
  );
  return expired.cursors;
}

/**
 * The rule for paused streams, which no turn takes (claimDueStreams): run before each round of
 * turns. Each costs a few index probes when nothing is old enough; a stream's failure is logged and
 * left to the next round, so it never holds back the others' delivery.
 */
export async function dropPausedBacklogs(db: DbOrTx, now: Date): Promise<void> {
  for (const stream of await pausedStreams(db, now)) {
    try {
      await dropExpiredEvents(db, stream, stream.cursors, now, true);
    } catch (error) {
      log.warn({ err: error, streamId: stream.id, orgId: stream.orgId }, "The backlog rule failed on a paused log stream; it is tried again next round");
    }
  }
}
