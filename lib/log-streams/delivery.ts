import type { DestinationSecrets } from "@/core/log-streams";
import type { DbOrTx } from "@/db";
import { claimDueStreams, recordDelivered, recordFailure, recordPassed, releaseStream, type StreamToDeliver } from "@/db/queries/log-streams";
import { logStreamCredentials } from "@/core/sealed-secret";
import { log } from "@/core/log";
import { dropExpiredEvents, dropPausedBacklogs } from "./backlog";
import { DeliveryError } from "./destinations/destination";
import { destinationFor } from "./destinations";
import { nextBatch, type Cursors } from "./events";
import { sharedRequestReads, type ReadRequests } from "./request-reads";

/** How a turn runs: its clock, and how long a destination has to take a batch (30 s; less in the tests). */
export interface TurnOptions {
  clock?: () => Date;
  batchTimeoutMs?: number;
}
type Turn = Required<TurnOptions> & { readRequests: ReadRequests };

const BATCH_TIMEOUT_MS = 30_000;
/** Batches one stream sends in one turn when the backlog is deep, before the others get theirs. */
const BATCHES_A_TURN = 5;
/** Reads of the request log one stream makes in a turn at most: a read passes up to 1,000 requests of the other mode. */
const READS_A_TURN = 50;
/** A turn lasts at most its batches' time limits; a process that dies mid-turn gives the stream back after this. */
const LEASE_MS = 3 * 60_000;
/** Streams delivered at once by the process whose turn it is. */
const STREAMS_AT_ONCE = 4;
/** After n failures in a row the next attempt waits about 5 s × 2^(n−1), at most 5 minutes. */
const MAX_BACKOFF_MS = 5 * 60_000;

function backoffMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 5_000 * 2 ** Math.max(0, failures - 1)) * (0.8 + Math.random() * 0.2);
}

function cursorsOf(stream: StreamToDeliver): Cursors {
  return {
    requests: stream.requestsAfter,
    activity: { tx: stream.activityAfterTx, id: stream.activityAfterId },
    alerts: { tx: stream.alertsAfterTx, id: stream.alertsAfterId },
  };
}

/**
 * A batch not taken: its error on the stream and the next attempt, after the backoff, the
 * destination's Retry-After if longer, or the longest wait when retrying cannot help until someone
 * changes the stream (a refused credential): it is still tried then, in case the fix was elsewhere.
 */
async function failed(db: DbOrTx, stream: StreamToDeliver, error: unknown, turn: Turn): Promise<void> {
  const at = turn.clock();
  log.warn({ err: error, streamId: stream.id, orgId: stream.orgId }, "A log stream's batch was not delivered; it is sent again later");
  const details = error instanceof DeliveryError ? error.details : null;
  const waitMs = details && !details.retryable ? MAX_BACKOFF_MS : Math.max(backoffMs(stream.failedAttempts + 1), details?.retryAfterMs ?? 0);
  await recordFailure(db, stream, { message: failureMessage(error, turn.batchTimeoutMs), at, nextAttemptAt: new Date(at.getTime() + waitMs) });
}

function failureMessage(error: unknown, timeoutMs: number): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error && error.name === "TimeoutError") return `The destination did not take the batch within ${timeoutMs / 1000} s.`;
  return `The batch could not be sent: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * One stream's turn (docs/features/log-streams.md#delivery): the backlog rule, then its next batches, each sent whole and
 * its cursors moved only once the destination took it, so a failure or a crash sends it again
 * (at least once, in order). Returns how many events were delivered.
 */
async function deliverStream(db: DbOrTx, stream: StreamToDeliver, turn: Turn): Promise<number> {
  // The backlog rule first, whatever the destination's state (even credentials that no longer open).
  let cursors = await dropExpiredEvents(db, stream, cursorsOf(stream), turn.clock());
  if (!cursors) return 0;
  const destination = destinationFor(stream.settings, JSON.parse(logStreamCredentials.open(stream.sealedSecrets)) as DestinationSecrets);
  let delivered = 0;
  let batches = 0;
  let recordedRequests = cursors.requests;
  for (let read = 0; read < READS_A_TURN && batches < BATCHES_A_TURN; read++) {
    const batch = await nextBatch(db, turn.readRequests, stream, cursors);
    if (batch.events.length === 0) {
      // The read found only the other mode's requests: the stream passes them, with nothing to send.
      cursors = batch.cursors;
      if (batch.more) continue;
      break;
    }
    let warning: string | undefined;
    try {
      const signal = AbortSignal.timeout(turn.batchTimeoutMs);
      await destination({ streamId: stream.id, organizationId: stream.orgId, id: `${stream.id}-${batch.events[0]!.id}`, events: batch.events, signal });
    } catch (error) {
      if (error instanceof DeliveryError && error.details.taken) warning = error.message;
      else {
        await failed(db, stream, error, turn);
        break;
      }
    }
    cursors = batch.cursors;
    delivered += batch.events.length;
    await recordDelivered(db, stream, cursors, turn.clock(), warning);
    recordedRequests = cursors.requests;
    batches++;
    if (!batch.more) break;
  }
  // Requests of the other mode passed since the last batch recorded: one write for all the reads that found only them.
  if (cursors.requests !== recordedRequests) await recordPassed(db, stream, cursors.requests);
  return delivered;
}

/**
 * A stream's turn that failed outside its destination (its credentials no longer open under this
 * AUTH_SECRET, a statement failed): recorded as the stream's error, so one stream never stops the others.
 */
async function turnOf(db: DbOrTx, stream: StreamToDeliver, turn: Turn): Promise<number> {
  try {
    return await deliverStream(db, stream, turn);
  } catch (error) {
    await failed(db, stream, error, turn);
    return 0;
  } finally {
    await releaseStream(db, stream);
  }
}

/**
 * Every due stream's turn, a few at a time: what every server process runs every few seconds
 * (servers/maintenance.ts), each taking the streams no other has (claimDueStreams).
 */
export async function deliverDueStreams(db: DbOrTx, options: TurnOptions = {}): Promise<number> {
  const turn: Turn = { clock: () => new Date(), batchTimeoutMs: BATCH_TIMEOUT_MS, ...options, readRequests: sharedRequestReads(db) };
  const now = turn.clock();
  // Paused streams take no turn; the backlog rule reaches them here (docs/features/log-streams.md#the-7-day-backlog).
  await dropPausedBacklogs(db, now);
  const due = await claimDueStreams(db, now, new Date(now.getTime() + LEASE_MS));
  let delivered = 0;
  for (let start = 0; start < due.length; start += STREAMS_AT_ONCE) {
    const counts = await Promise.all(due.slice(start, start + STREAMS_AT_ONCE).map((stream) => turnOf(db, stream, turn)));
    delivered += counts.reduce((sum, count) => sum + count, 0);
  }
  return delivered;
}
