import "server-only";
import { randomUUID } from "node:crypto";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { claimStream, releaseStream, resumeCursor, tailHead, tailRows, touchStream, type TailFilters } from "@/db/queries/live-tail";
import { findMembershipBySlug } from "@/db/queries/organizations";
import { liveSession } from "@/db/queries/sessions";
import { membershipRefusal } from "@/lib/authz";
import { LIVE_ROWS_KEPT, LIVE_STREAMS_PER_USER, type LiveTailEnd } from "./protocol";

/**
 * The live tail (SPEC §14): the organization's new requests as server-sent events, each with its
 * row id as the event id. The cursor is the log's id, given in commit order by the log writer:
 * every process's requests appear, and a client that reconnects with Last-Event-ID gets every
 * row after its last one exactly once.
 *
 * It pulls: the stream reads the log only when its queue (QUEUE_BYTES) has room, so a slow client
 * holds at most that much here and the database is its buffer.
 */

// A row appears within POLL_MS plus one read of its commit (the bar is 1 s).
const POLL_MS = 400;
// A demoted, removed or signed-out viewer's stream ends within this.
const ACCESS_CHECK_MS = 2000;
// Proxies close a connection silent for a minute or so.
const HEARTBEAT_MS = 15_000;
// A stream not touched for this long belongs to a process that died: it no longer counts.
const STALE_STREAM_MS = 30_000;
const PAGE_ROWS = 100;
// However long a tail was away, resuming looks at most this many rows back.
const RESUME_SCAN_ROWS = 20_000;
const QUEUE_BYTES = 64 * 1024;

export interface LiveTailViewer {
  userId: string;
  sessionId: string;
  orgId: string;
  orgSlug: string;
}

/** What a stream did, for tests and the bench: rows read from the log and queued for the client. */
export interface LiveTailStats {
  rowsQueued: number;
}

const encoder = new TextEncoder();

function sseText(fields: { id?: number; event?: string; data?: unknown }): string {
  let text = "";
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.event) text += `event: ${fields.event}\n`;
  // An event with an id and no data moves the client's Last-Event-ID without an event (the SSE spec).
  if (fields.data !== undefined) text += `data: ${JSON.stringify(fields.data)}\n`;
  return `${text}\n`;
}

function sse(fields: { id?: number; event?: string; data?: unknown }): Uint8Array {
  return encoder.encode(sseText(fields));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

const ENDINGS: Record<LiveTailEnd["reason"], string> = {
  too_many: `You have ${LIVE_STREAMS_PER_USER} live views open, the most one person can. Turn Live off in another tab or window, then try again.`,
  signed_out: "You signed out, so the live view stopped. Sign in again to watch.",
  no_access: "You no longer have access to this organization's requests, so the live view stopped.",
  expired: "The live view lost its place on the server. Turn Live off and on again.",
};

function ending(reason: LiveTailEnd["reason"]): Uint8Array {
  return sse({ event: "end", data: { reason, message: ENDINGS[reason] } satisfies LiveTailEnd });
}

/** Whether the viewer may still watch: a live session, and a role in the organization that may. */
async function stillAllowed(viewer: LiveTailViewer, streamId: string): Promise<LiveTailEnd["reason"] | null> {
  const [session, membership, touched] = await Promise.all([
    liveSession(viewer.sessionId, viewer.userId),
    findMembershipBySlug(viewer.userId, viewer.orgSlug),
    touchStream(streamId),
  ]);
  if (!session || session.secondFactorPending) return "signed_out";
  if (!membership || membership.orgId !== viewer.orgId || membershipRefusal(membership, "requests.inspect")) return "no_access";
  return touched ? null : "expired";
}

/**
 * A stream of the organization's requests matching `filters` after row `after` (from the newest
 * row now when null). `signal` is the client's connection: when it goes, the stream stops reading.
 */
export async function openLiveTail(viewer: LiveTailViewer, filters: TailFilters, after: number | null, signal: AbortSignal): Promise<{ stream: ReadableStream<Uint8Array>; stats: LiveTailStats }> {
  const stats: LiveTailStats = { rowsQueued: 0 };
  const streamId = `lts_${randomUUID()}`;
  if (!(await claimStream({ id: streamId, userId: viewer.userId, orgId: viewer.orgId }, LIVE_STREAMS_PER_USER, STALE_STREAM_MS))) {
    const refused = ending("too_many");
    return { stream: new ReadableStream({ start: (controller) => (controller.enqueue(refused), controller.close()) }), stats };
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    void releaseStream(streamId).catch((error: unknown) => console.error(`Releasing live tail ${streamId} failed`, error));
  };
  signal.addEventListener("abort", release, { once: true });

  let cursor: number;
  let first: Uint8Array[] = [encoder.encode("retry: 2000\n\n")];
  try {
    if (after === null) {
      cursor = await tailHead(viewer.orgId);
    } else {
      const resumed = await resumeCursor(viewer.orgId, after, filters, LIVE_ROWS_KEPT, RESUME_SCAN_ROWS);
      cursor = resumed.cursor;
      if (resumed.skipped) first.push(sse({ event: "skipped", data: { message: `More than ${LIVE_ROWS_KEPT} requests came in while this view was away: the oldest of them are in the audit log.` } }));
    }
  } catch (error) {
    release();
    throw error;
  }
  let checkedAt = Date.now();
  let sentAt = Date.now();
  let readAfter = 0;

  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const queue = (chunk: Uint8Array) => {
          controller.enqueue(chunk);
          sentAt = Date.now();
        };
        try {
          if (first.length > 0) {
            for (const chunk of first) queue(chunk);
            first = [];
            return;
          }
          for (;;) {
            // After a partial page, the next read waits its turn: a busy log is read in batches, not row by row.
            if (readAfter > Date.now()) await sleep(readAfter - Date.now(), signal);
            if (signal.aborted) {
              release();
              controller.close();
              return;
            }
            if (Date.now() - checkedAt >= ACCESS_CHECK_MS) {
              checkedAt = Date.now();
              const stop = await stillAllowed(viewer, streamId);
              if (stop) {
                queue(ending(stop));
                release();
                controller.close();
                return;
              }
            }
            // The head first: every row up to it is committed, so reading up to it misses none.
            const head = await tailHead(viewer.orgId, cursor);
            if (head > cursor) {
              const rows = await tailRows(viewer.orgId, cursor, head, filters, PAGE_ROWS);
              // The page's events go out as one chunk: one encoding and one write for them all.
              let page = "";
              for (const row of rows) page += sseText({ id: row.id, event: "request", data: row satisfies AuditLogRowDto });
              stats.rowsQueued += rows.length;
              // A full page stops at its last row; otherwise every row up to the head has been seen.
              cursor = rows.length === PAGE_ROWS ? rows.at(-1)!.id : head;
              // Past rows the filters skip, the client's Last-Event-ID moves on too: a reconnect resumes here.
              if (rows.at(-1)?.id !== cursor) page += sseText({ id: cursor });
              queue(encoder.encode(page));
              readAfter = rows.length === PAGE_ROWS ? 0 : Date.now() + POLL_MS;
              return;
            }
            if (Date.now() - sentAt >= HEARTBEAT_MS) {
              queue(encoder.encode(": keep-alive\n\n"));
              return;
            }
            readAfter = Date.now() + POLL_MS;
          }
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel() {
        release();
      },
    },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { stream, stats };
}
