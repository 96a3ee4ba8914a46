import "server-only";
import { and, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";
import { logStreams } from "@/db/schema";
import type { Mode } from "@/core/enums";
import type { LogStreamSource } from "@/core/log-streams";
import { requestOfMode, type VisibleAfter } from "./log-stream-events";
import { unleased } from "./log-streams";

/**
 * The backlog rule's statements (docs/features/log-streams.md#the-7-day-backlog): a stream's events
 * older than a cutoff and still undelivered are passed, oldest first, in the order the stream reads
 * them (db/queries/log-stream-events.ts). Each source's cursor moves past the head of its queue
 * that is older than the cutoff and stops before its first younger event, so an event younger than
 * the cutoff is never passed, even where a source's order and its events' times disagree (a long
 * request committed after younger ones). Each source is read on the index its reader uses, from the cursor on: a stream with
 * nothing to drop costs a few index probes, one with a backlog as much as the events it drops.
 */

/** Where a stream is in each source (the last event delivered or dropped). */
export interface StreamCursors {
  requests: number;
  activity: VisibleAfter;
  alerts: VisibleAfter;
}

/** A stream as the rule needs it: what it carries, of which mode. */
export interface StreamBacklog {
  id: string;
  orgId: string;
  mode: Mode;
  sources: LogStreamSource[];
}

/** What the rule drops of a stream: how many events, and its cursors past them. */
export interface Expired {
  dropped: number;
  cursors: StreamCursors;
}

/** Biggest bigint: the request log's bound when no request is younger than the cutoff. */
const NO_BOUND = sql.raw("9223372036854775807");

/** The stream's requests older than the cutoff before its first younger one: how many, and the last. */
function expiredRequests(orgId: string, mode: Mode, after: number, cutoff: string): SQL {
  // The mode is the key's (requestOfMode: read in id order from the cursor); the created-at bounds also leave out the partitions they cannot be in.
  return sql`(
    select count(*)::int as dropped, null::text as last_tx, max(r.id)::float8 as last_id
    from request_log r
    where r.org_id = ${orgId} and r.id > ${after} and r.created_at < ${cutoff}::timestamptz and ${requestOfMode("r", mode)}
      and r.id < coalesce((
        select y.id from request_log y
        where y.org_id = ${orgId} and y.id > ${after} and y.created_at >= ${cutoff}::timestamptz and ${requestOfMode("y", mode)}
        order by y.id limit 1), ${NO_BOUND}))`;
}

/**
 * The same for activity entries or alerts, in (transaction, id) order and only of transactions no
 * snapshot can still see running, as their reader takes them. The bound is the first younger entry,
 * or else (visible horizon, 0): everything visible is before it.
 */
function expiredVisible(table: "activity_log" | "alerts", orgId: string, after: VisibleAfter, cutoff: string): SQL {
  const t = sql.raw(table);
  const pending = sql`e.org_id = ${orgId} and (e.tx, e.id) > (${after.tx}::xid8, ${after.id})`;
  return sql`(
    select c.dropped, l.tx::text as last_tx, l.id::float8 as last_id
    from (
      select coalesce(y.tx, v.xmin) as tx, coalesce(y.id, 0) as id
      from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) v
      left join lateral (
        select e.tx, e.id from ${t} e
        where ${pending} and e.tx < v.xmin and e.created_at >= ${cutoff}::timestamptz
        order by e.tx, e.id limit 1) y on true
    ) b
    cross join lateral (select count(*)::int as dropped from ${t} e where ${pending} and (e.tx, e.id) < (b.tx, b.id)) c
    left join lateral (
      select e.tx, e.id from ${t} e where ${pending} and (e.tx, e.id) < (b.tx, b.id) order by e.tx desc, e.id desc limit 1) l on true)`;
}

const NOTHING = sql`(select 0 as dropped, null::text as last_tx, null::float8 as last_id)`;

/** Each source's drop: how many, and the last one's position (its transaction, for activity and alerts). */
interface ExpiredRow {
  requests_dropped: number;
  requests_last_id: number | null;
  activity_dropped: number;
  activity_last_tx: string | null;
  activity_last_id: number | null;
  alerts_dropped: number;
  alerts_last_tx: string | null;
  alerts_last_id: number | null;
}

const columns = (source: string) =>
  sql.raw(`${source}.dropped as ${source}_dropped, ${source}.last_tx as ${source}_last_tx, ${source}.last_id as ${source}_last_id`);

/** The stream's events older than `cutoff` at the head of each source it carries, in one statement. */
export async function expiredEvents(db: DbOrTx, stream: StreamBacklog, cursors: StreamCursors, cutoff: Date): Promise<Expired> {
  const { orgId, sources } = stream;
  const at = cutoff.toISOString();
  const [row] = rowsOf<ExpiredRow>(
    await db.execute(sql`
      select ${columns("requests")}, ${columns("activity")}, ${columns("alerts")}
      from ${sources.includes("requests") ? expiredRequests(orgId, stream.mode, cursors.requests, at) : NOTHING} requests,
           ${sources.includes("activity") ? expiredVisible("activity_log", orgId, cursors.activity, at) : NOTHING} activity,
           ${sources.includes("alerts") ? expiredVisible("alerts", orgId, cursors.alerts, at) : NOTHING} alerts`),
  );
  const r = row!;
  const past = (dropped: number, tx: string | null, id: number | null, from: VisibleAfter): VisibleAfter => (dropped ? { tx: tx!, id: id! } : from);
  return {
    dropped: r.requests_dropped + r.activity_dropped + r.alerts_dropped,
    cursors: {
      requests: r.requests_dropped ? r.requests_last_id! : cursors.requests,
      activity: past(r.activity_dropped, r.activity_last_tx, r.activity_last_id, cursors.activity),
      alerts: past(r.alerts_dropped, r.alerts_last_tx, r.alerts_last_id, cursors.alerts),
    },
  };
}

/**
 * Moves the stream's cursors from `from` past its expired events and adds them to its dropped
 * count, only if its cursors are still `from` (a delivery or another process's pass may have moved
 * them since they were read) and, with `whilePausedAt`, only while it is paused and no process has
 * its turn (a stream resumed meanwhile is its turn's). False when it was not moved.
 */
export async function moveCursorsPastExpired(
  db: DbOrTx,
  stream: { id: string; orgId: string },
  from: StreamCursors,
  expired: Expired,
  whilePausedAt: Date | null,
): Promise<boolean> {
  const to = expired.cursors;
  const moved = await db
    .update(logStreams)
    .set({
      requestsAfter: to.requests,
      activityAfterTx: to.activity.tx,
      activityAfterId: to.activity.id,
      alertsAfterTx: to.alerts.tx,
      alertsAfterId: to.alerts.id,
      droppedEvents: sql`${logStreams.droppedEvents} + ${expired.dropped}`,
    })
    .where(
      and(
        eq(logStreams.id, stream.id),
        eq(logStreams.orgId, stream.orgId),
        eq(logStreams.requestsAfter, from.requests),
        eq(logStreams.activityAfterTx, from.activity.tx),
        eq(logStreams.activityAfterId, from.activity.id),
        eq(logStreams.alertsAfterTx, from.alerts.tx),
        eq(logStreams.alertsAfterId, from.alerts.id),
        ...(whilePausedAt ? [isNotNull(logStreams.pausedAt), unleased(whilePausedAt)] : []),
      ),
    )
    .returning({ id: logStreams.id });
  return moved.length > 0;
}

/**
 * The paused streams no process has a turn of, every organization's, with their cursors: the rule
 * reaches them without a turn (claimDueStreams takes no paused stream). The table holds at most
 * LOG_STREAMS_MAX rows per organization.
 */
export async function pausedStreams(db: DbOrTx, now: Date): Promise<(StreamBacklog & { cursors: StreamCursors })[]> {
  const rows = await db
    .select({
      id: logStreams.id,
      orgId: logStreams.orgId,
      mode: logStreams.mode,
      sources: logStreams.sources,
      requestsAfter: logStreams.requestsAfter,
      activityAfterTx: logStreams.activityAfterTx,
      activityAfterId: logStreams.activityAfterId,
      alertsAfterTx: logStreams.alertsAfterTx,
      alertsAfterId: logStreams.alertsAfterId,
    })
    .from(logStreams)
    .where(and(isNotNull(logStreams.pausedAt), unleased(now)));
  return rows.map(({ requestsAfter, activityAfterTx, activityAfterId, alertsAfterTx, alertsAfterId, ...stream }) => ({
    ...stream,
    cursors: { requests: requestsAfter, activity: { tx: activityAfterTx, id: activityAfterId }, alerts: { tx: alertsAfterTx, id: alertsAfterId } },
  }));
}
