import "server-only";
import { randomUUID } from "node:crypto";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { claimStream, releaseStream, resumeCursor, tailHead, tailRows, touchStream, type TailFilters } from "@/db/queries/live-tail";
import { findMembershipBySlug } from "@/db/queries/organizations";
import { liveSession } from "@/db/queries/sessions";
import { membershipRefusal } from "@/lib/authz";
import { LIVE_ROWS_KEPT, LIVE_STREAMS_PER_USER, type LiveTailEnd } from "./protocol";
import { log } from "@/core/log";

/**
 * The live tail (docs/features/live-tail.md): the organization's new requests as server-sent events, each with its
 * row id as the event id. The cursor is the log's id, given in commit order by the log writer:
 * every process's requests appear, and a client that reconnects with Last-Event-ID gets every
 * row after its last one exactly once.
 *
 * It pulls: the stream reads the log only when its queue (QUEUE_BYTES) has room, so a slow client
 * holds at most that much here and the database is its buffer. A timer of its own, not the reads,
 * keeps its place in the cap and checks its viewer: a client that stops reading stops the reads,
 * and must neither free its place nor escape the check.
 */

// A row appears within POLL_MS plus one read of its commit (the bar is 1 s).
const POLL_MS = 400;
// A demoted, removed or signed-out viewer's stream ends within this; each check also marks the
// stream alive, whether or not its client is reading.
const ACCESS_CHECK_MS = 2000;
// A client that takes nothing from its full queue for this long is not reading: its stream ends
// (docs/features/live-tail.md, "Slow clients").
const SLOW_CONSUMER_MS = 30_000;
// Proxies close a connection silent for a minute or so.
const HEARTBEAT_MS = 15_000;
// A stream not touched for this long belongs to a process that died: it no longer counts.
export const STALE_STREAM_MS = 30_000;
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

/** How often an open stream checks its viewer, and how long its queue may stay full: tests shorten them. */
export interface LiveTailTiming {
  checkMs: number;
  slowConsumerMs: number;
}

const TIMING: LiveTailTiming = { checkMs: ACCESS_CHECK_MS, slowConsumerMs: SLOW_CONSUMER_MS };

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
  // membershipRefusal also refuses a member the organization's two-factor or single sign-on requirement keeps out.
  if (!membership || membership.orgId !== viewer.orgId || membershipRefusal(membership, session, "requests.inspect")) return "no_access";
  return touched ? null : "expired";
}

/** Where a tail starts reading, and what it sends before its first row. */
async function startingPoint(orgId: string, filters: TailFilters, after: number | null): Promise<{ cursor: number; first: Uint8Array[] }> {
  const first: Uint8Array[] = [encoder.encode("retry: 2000\n\n")];
  if (after === null) return { cursor: await tailHead(orgId), first };
  const resumed = await resumeCursor(orgId, after, filters, LIVE_ROWS_KEPT, RESUME_SCAN_ROWS);
  if (resumed.skipped)
    first.push(
      sse({
        event: "skipped",
        data: { message: `More than ${LIVE_ROWS_KEPT} requests came in while this view was away: the oldest of them are in the audit log.` },
      }),
    );
  return { cursor: resumed.cursor, first };
}

/**
 * A stream of the organization's requests matching `filters` after row `after` (from the newest
 * row now when null). `signal` is the client's connection: when it goes, the stream stops reading.
 */
export async function openLiveTail(
  viewer: LiveTailViewer,
  filters: TailFilters,
  after: number | null,
  signal: AbortSignal,
  timing: LiveTailTiming = TIMING,
): Promise<{ stream: ReadableStream<Uint8Array>; stats: LiveTailStats }> {
  const stats: LiveTailStats = { rowsQueued: 0 };
  const streamId = `lts_${randomUUID()}`;
  if (!(await claimStream({ id: streamId, userId: viewer.userId, orgId: viewer.orgId }, LIVE_STREAMS_PER_USER, STALE_STREAM_MS))) {
    const refused = ending("too_many");
    return { stream: new ReadableStream({ start: (controller) => (controller.enqueue(refused), controller.close()) }), stats };
  }
  let start: Awaited<ReturnType<typeof startingPoint>>;
  try {
    start = await startingPoint(viewer.orgId, filters, after);
  } catch (error) {
    releaseLater(streamId);
    throw error;
  }
  const tail = new Tail(viewer, filters, streamId, start.cursor, stats, timing);
  const stream = new ReadableStream<Uint8Array>(
    { start: (controller) => tail.start(controller, start.first, signal), pull: () => tail.pull(), cancel: () => tail.cancel() },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { stream, stats };
}

function releaseLater(streamId: string): void {
  void releaseStream(streamId).catch((error: unknown) => log.error({ err: error, streamId }, "Releasing a live tail failed"));
}

/** One open stream: its reads of the log (pull), and its timer (check). */
class Tail {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  // Aborted when the stream stops for any reason: ends the reads' waits and the timer's work.
  private readonly halted = new AbortController();
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private checking = false;
  private sentAt = Date.now();
  private readAfter = 0;
  // pull runs only when the queue has room: the last time it did, the client was taking.
  private roomAt = Date.now();

  constructor(
    private readonly viewer: LiveTailViewer,
    private readonly filters: TailFilters,
    private readonly streamId: string,
    private cursor: number,
    private readonly stats: LiveTailStats,
    private readonly timing: LiveTailTiming,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>, first: Uint8Array[], signal: AbortSignal): void {
    this.controller = controller;
    for (const chunk of first) controller.enqueue(chunk);
    if (signal.aborted) return this.close();
    signal.addEventListener("abort", () => this.close(), { once: true });
    this.timer = setInterval(() => void this.check(), this.timing.checkMs);
    // An open stream never keeps the process running.
    this.timer.unref();
  }

  async pull(): Promise<void> {
    this.roomAt = Date.now();
    try {
      for (;;) {
        // After a partial page, the next read waits its turn: a busy log is read in batches, not row by row.
        if (this.readAfter > Date.now()) await sleep(this.readAfter - Date.now(), this.halted.signal);
        if (this.halted.signal.aborted) return this.close();
        // The head first: every row up to it is committed, so reading up to it misses none.
        const head = await tailHead(this.viewer.orgId, this.cursor);
        if (this.halted.signal.aborted) return this.close();
        if (head > this.cursor) return await this.sendRows(head);
        if (Date.now() - this.sentAt >= HEARTBEAT_MS) return this.send(encoder.encode(": keep-alive\n\n"));
        this.readAfter = Date.now() + POLL_MS;
      }
    } catch (error) {
      this.fail(error);
    }
  }

  cancel(): void {
    this.closed = true;
    this.stop();
  }

  private async sendRows(head: number): Promise<void> {
    const rows = await tailRows(this.viewer.orgId, this.cursor, head, this.filters, PAGE_ROWS);
    if (this.halted.signal.aborted) return this.close();
    // The page's events go out as one chunk: one encoding and one write for them all.
    let page = "";
    for (const row of rows) page += sseText({ id: row.id, event: "request", data: row satisfies AuditLogRowDto });
    this.stats.rowsQueued += rows.length;
    // A full page stops at its last row; otherwise every row up to the head has been seen.
    this.cursor = rows.length === PAGE_ROWS ? rows.at(-1)!.id : head;
    // Past rows the filters skip, the client's Last-Event-ID moves on too: a reconnect resumes here.
    if (rows.at(-1)?.id !== this.cursor) page += sseText({ id: this.cursor });
    this.send(encoder.encode(page));
    this.readAfter = rows.length === PAGE_ROWS ? 0 : Date.now() + POLL_MS;
  }

  private send(chunk: Uint8Array): void {
    this.controller.enqueue(chunk);
    this.sentAt = Date.now();
  }

  /** Every checkMs, reading or not: marks the stream alive, and ends it when its viewer may no longer watch or its client stopped taking. */
  private async check(): Promise<void> {
    if (this.checking || this.halted.signal.aborted) return;
    this.checking = true;
    try {
      const reason = await stillAllowed(this.viewer, this.streamId);
      if (this.halted.signal.aborted) return;
      if (reason) return this.end(reason);
      const stalledMs = Date.now() - this.roomAt;
      if (this.queueFull() && stalledMs >= this.timing.slowConsumerMs)
        this.drop(`The client took nothing from its live tail's full queue for ${stalledMs} ms.`);
    } catch (error) {
      this.fail(error);
    } finally {
      this.checking = false;
    }
  }

  private queueFull(): boolean {
    return (this.controller.desiredSize ?? 0) <= 0;
  }

  /** Stops reading and gives the stream's place in the cap back: on every ending, the client's included. */
  private stop(): void {
    if (this.halted.signal.aborted) return;
    this.halted.abort();
    clearInterval(this.timer);
    releaseLater(this.streamId);
  }

  private close(): void {
    this.stop();
    if (this.closed) return;
    this.closed = true;
    this.controller.close();
  }

  /** The viewer may no longer watch: an `end` event says why, to a client still taking; one that is not gets nothing more. */
  private end(reason: LiveTailEnd["reason"]): void {
    if (this.queueFull()) return this.drop(ENDINGS[reason]);
    this.send(ending(reason));
    this.close();
  }

  /**
   * Ends the stream and drops its queue, which a client not reading would otherwise keep here
   * until its connection goes. An AbortError is what Next's pipe takes for a connection that ended,
   * not a fault to log (node_modules/next/dist/server/pipe-readable.js).
   */
  private drop(message: string): void {
    this.fail(new DOMException(message, "AbortError"));
  }

  private fail(error: unknown): void {
    this.stop();
    if (this.closed) return;
    this.closed = true;
    this.controller.error(error);
  }
}
