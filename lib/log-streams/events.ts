import { LOG_STREAM_BATCH_MAX, type LogEvent, type LogStreamSource } from "@/core/log-streams";
import type { Mode } from "@/core/enums";
import { withSnakeCaseKeys } from "@/core/key-case";
import type { DbOrTx } from "@/db";
import { activityAfter, alertsAfter, type ActivityEventRow, type AlertEventRow, type RequestEventRow, type VisibleAfter } from "@/db/queries/log-stream-events";
import type { ReadRequests } from "./request-reads";

/** Where a stream's sources were left: what was delivered last of each. */
export interface Cursors {
  requests: number;
  activity: VisibleAfter;
  alerts: VisibleAfter;
}

/** The next events, the cursors once they are delivered, and whether more may follow them. */
export interface NextBatch {
  events: LogEvent[];
  cursors: Cursors;
  more: boolean;
}

const requestEvents = new WeakMap<RequestEventRow, LogEvent>();

/**
 * A request row's event, one object however many streams carry it: the streams of an organization
 * take the same rows from the turn's shared read (lib/log-streams/request-reads.ts), each its own
 * mode's, so what a destination derives from an event once (destinations/event-record.ts) serves
 * them all.
 */
function requestEvent(row: RequestEventRow, orgId: string, mode: Mode): LogEvent {
  let event = requestEvents.get(row);
  if (!event) {
    const { id: _id, request_id, created_at, ...data } = row;
    event = { id: request_id, type: "request", occurredAt: created_at, organizationId: orgId, livemode: mode === "live", data: { request_id, ...data } };
    requestEvents.set(row, event);
  }
  return event;
}

function activityEvent(row: ActivityEventRow, orgId: string): LogEvent {
  const { id, tx: _tx, created_at, ...data } = row;
  return { id: `act_${id}`, type: "activity", occurredAt: created_at, organizationId: orgId, livemode: null, data };
}

/** An alert's kind, its key, and its figures beside them, as the alerts page shows them. */
function alertEvent(row: AlertEventRow, orgId: string): LogEvent {
  const { id, kind, key_id, key_name, details, created_at } = row;
  // The figures are stored as the code names them ("endpointId"); events name them as /v1 does.
  const figures = withSnakeCaseKeys(details) as Record<string, unknown>;
  return { id: `alert_${id}`, type: "alert", occurredAt: created_at, organizationId: orgId, livemode: null, data: { kind, key_id, key_name, ...figures } };
}

type Sourced = { event: LogEvent; advance: (cursors: Cursors) => Cursors };

/**
 * The stream's next events: up to a batch from each source it carries, merged by the time they
 * happened (a source's own order kept), cut at one batch; the cursors move past what was taken.
 * The requests come through the turn's `readRequests`, which the organization's streams share.
 */
export async function nextBatch(
  db: DbOrTx,
  readRequests: ReadRequests,
  stream: { orgId: string; mode: Mode; sources: LogStreamSource[] },
  cursors: Cursors,
): Promise<NextBatch> {
  const { orgId, mode, sources } = stream;
  const limit = LOG_STREAM_BATCH_MAX;
  const [requests, activity, alerts] = await Promise.all([
    sources.includes("requests") ? readRequests(orgId, mode, cursors.requests, limit) : { rows: [], end: cursors.requests, cut: false },
    sources.includes("activity") ? activityAfter(db, orgId, cursors.activity, limit) : [],
    sources.includes("alerts") ? alertsAfter(db, orgId, cursors.alerts, limit) : [],
  ]);
  const queues: Sourced[][] = [
    requests.rows.map((row) => ({ event: requestEvent(row, orgId, mode), advance: (c: Cursors) => ({ ...c, requests: row.id }) })),
    activity.map((row) => ({ event: activityEvent(row, orgId), advance: (c: Cursors) => ({ ...c, activity: { tx: row.tx, id: row.id } }) })),
    alerts.map((row) => ({ event: alertEvent(row, orgId), advance: (c: Cursors) => ({ ...c, alerts: { tx: row.tx, id: row.id } }) })),
  ];
  const events: LogEvent[] = [];
  let next = cursors;
  while (events.length < limit) {
    // The queue whose head happened first; each queue stays in its own order.
    let earliest: Sourced[] | undefined;
    for (const queue of queues) if (queue.length && (!earliest || queue[0]!.event.occurredAt < earliest[0]!.event.occurredAt)) earliest = queue;
    if (!earliest) break;
    const taken = earliest.shift()!;
    events.push(taken.event);
    next = taken.advance(next);
  }
  // Every request of the read taken: the stream has all of its mode up to where the read ended,
  // so the cursor passes the other mode's requests there too.
  if (queues[0]!.length === 0) next = { ...next, requests: requests.end };
  return { events, cursors: next, more: events.length >= limit || requests.cut };
}
