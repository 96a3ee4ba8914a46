import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { liveTailResponse } from "@/app/[orgSlug]/settings/api/audit/live/live-tail-response";
import { changeMemberRoleAction, removeMemberAction, setTwoFactorRequirementAction } from "@/app/[orgSlug]/settings/members/actions";
import { getDb, postgresClient } from "@/db";
import { createSession, endSession } from "@/db/queries/sessions";
import { REQUEST_LOG_ORDER_LOCK } from "@/db/queries/request-log-writer";
import { liveTailStreams, requestLog } from "@/db/schema";
import { openLiveTail } from "@/lib/live-tail/stream";
import { LIVE_ROWS_KEPT, LIVE_STREAMS_PER_USER } from "@/lib/live-tail/protocol";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import { createTeam, form, giveSecondFactor, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { actAs } from "./helpers/session";
import { sseReader, type SseEvent } from "./helpers/sse";
import { startApiServer } from "./helpers/api-server";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";
import { quiet, until } from "./helpers/eventually";

const inProcess = startApiServer();
// On PostgreSQL the API runs in a process of its own, as a second server would; PGlite allows one process.
let other: ServerProcess | null = null;
beforeAll(async () => {
  if (process.env.DATABASE_URL) other = await startServerProcess();
}, 60_000);
afterAll(async () => {
  await other?.stop();
});
const apiBase = () => other?.base ?? inProcess.base;

/** A member of a fresh team signed in with a real session, and their open streams closed after. */
async function watcher(role: "member" | "owner" = "member") {
  const team = await createTeam("enterprise");
  const user = team.byRole[role];
  const sessionId = await createSession(user.id, { ip: null, userAgent: "vitest" }, { secondFactorPending: false });
  const key = await insertKey(team.org.id);
  const open = async (query: Record<string, string> = {}, lastEventId: string | null = null) => {
    actAs(user.id, sessionId);
    const connection = new AbortController();
    const response = await liveTailResponse(team.org.slug, new URLSearchParams(query), lastEventId, connection.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = sseReader(response.body!);
    return { events, close: async () => (connection.abort(), await events.cancel()) };
  };
  return { team, user, sessionId, key, open };
}

/** The `request` events until `count` have come (or the wait runs out), each with its row. */
async function requestsOf(events: ReturnType<typeof sseReader>, count: number, timeoutMs = 5000): Promise<{ id: number; row: AuditLogRowDto }[]> {
  const rows: { id: number; row: AuditLogRowDto }[] = [];
  const deadline = Date.now() + timeoutMs;
  while (rows.length < count && Date.now() < deadline) {
    const event = await events.next(deadline - Date.now());
    if (!event) break;
    if (event.event === "request") rows.push({ id: Number(event.id), row: JSON.parse(event.data!) as AuditLogRowDto });
  }
  return rows;
}

async function endOf(events: ReturnType<typeof sseReader>, timeoutMs: number): Promise<SseEvent | null> {
  const deadline = Date.now() + timeoutMs;
  for (let event = await events.next(timeoutMs); event; event = await events.next(Math.max(1, deadline - Date.now()))) {
    if (event.event === "end") return event;
  }
  return null;
}

const streamRowsOf = (userId: string) => getDb().select().from(liveTailStreams).where(eq(liveTailStreams.userId, userId));
// More than a stream's 64 KiB queue holds: a tail opened before them and never read fills its queue at once.
const backlog = (orgId: string, apiKeyId: string) => Promise.all(Array.from({ length: 300 }, () => logRequest({ orgId, apiKeyId, at: new Date() })));

const callApi = (key: string, path: string, init: RequestInit = {}) =>
  fetch(`${apiBase()}${path}`, { ...init, headers: { "X-API-Key": key, ...init.headers } });

describe("the live tail", () => {
  it("receives the requests another server process answered within 1 s, with the page's filters", async () => {
    const { key, open } = await watcher();
    const tail = await open({ status: "4xx" });
    const answered: { requestId: string; at: number }[] = [];
    for (const path of ["/v1/invoices/in_missing", "/v1/customers", "/v1/no-such-route"]) {
      // The success in the middle is filtered out.
      const response = await callApi(key.value, path);
      if (response.status >= 400) answered.push({ requestId: response.headers.get("x-request-id")!, at: Date.now() });
    }
    const received = await requestsOf(tail.events, 2, 3000);
    const arrivals = received.map(({ row }) => ({ requestId: row.requestId, at: Date.now() }));
    expect(received.map(({ row }) => row.requestId)).toEqual(answered.map((a) => a.requestId));
    for (const { row } of received) expect(row.status).toBeGreaterThanOrEqual(400);
    // Each within a second of its answer (read as they came, so the last one bounds them all).
    expect(arrivals.at(-1)!.at - answered.at(-1)!.at).toBeLessThan(1000);
    expect(await requestsOf(tail.events, 1, 600)).toEqual([]);
    await tail.close();
  });

  it("resumes after a dropped connection from Last-Event-ID: every row once, in commit order", async () => {
    const { team, key, open } = await watcher();
    const log = (count: number) => Promise.all(Array.from({ length: count }, () => logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date() })));
    const first = await open();
    await log(30);
    const before = await requestsOf(first.events, 12);
    await first.close();
    await log(25);
    const second = await open({}, String(before.at(-1)!.id));
    await log(5);
    const after = await requestsOf(second.events, 48);
    await second.close();

    const ids = [...before, ...after].map(({ id }) => id);
    const logged = await getDb()
      .select({ id: requestLog.id })
      .from(requestLog)
      .where(and(eq(requestLog.orgId, team.org.id), gt(requestLog.id, ids[0]! - 1)))
      .orderBy(asc(requestLog.id));
    expect(ids).toEqual(logged.map(({ id }) => id));
    expect(new Set(ids).size).toBe(60);
  });

  it("moves Last-Event-ID past the rows its filters skip, and sends no more than the page keeps after a long absence", async () => {
    const { team, key, open } = await watcher();
    const first = await open({ status: "5xx" });
    await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date(), status: 200 });
    const checkpoint = await first.events.next(3000);
    expect(checkpoint).toMatchObject({ event: "message", id: expect.stringMatching(/^\d+$/) });
    expect(checkpoint!.data).toBeUndefined();
    await first.close();

    await Promise.all(
      Array.from({ length: 2 * (LIVE_ROWS_KEPT + 40) }, (_, i) =>
        logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date(), status: i % 2 ? 200 : 503 }),
      ),
    );
    const resumed = await open({ status: "5xx" }, checkpoint!.id!);
    expect((await resumed.events.next())?.event).toBe("skipped");
    const rows = await requestsOf(resumed.events, LIVE_ROWS_KEPT + 1, 4000);
    expect(rows).toHaveLength(LIVE_ROWS_KEPT);
    expect(rows.every(({ row }) => row.status === 503)).toBe(true);
    await resumed.close();
  });

  it("ends the stream of a member demoted to guest, and of one who signed out", async () => {
    const { team, user, sessionId, open } = await watcher();
    const demoted = await open();
    actAs(team.owner.id);
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: user.id, role: "guest" }))).toMatchObject({ ok: true });
    const started = Date.now();
    expect(JSON.parse((await endOf(demoted.events, 5000))!.data!)).toMatchObject({ reason: "no_access" });
    expect(Date.now() - started).toBeLessThan(3000);
    // Nothing after the end: the server closes the stream (waited for, not a silent half second).
    expect(await demoted.events.next(5000)).toBeNull();
    expect(demoted.events.ended).toBe(true);

    const signedIn = await watcher();
    const signedOut = await signedIn.open();
    await endSession(signedIn.sessionId);
    expect(JSON.parse((await endOf(signedOut.events, 5000))!.data!)).toMatchObject({ reason: "signed_out" });
    // A guest cannot open one at all.
    actAs(user.id, sessionId);
    expect((await liveTailResponse(team.org.slug, new URLSearchParams(), null, new AbortController().signal)).status).toBe(403);
  });

  it(`allows ${LIVE_STREAMS_PER_USER} open streams per person, and another once one closes`, async () => {
    const { user, open } = await watcher();
    const streams = await Promise.all(Array.from({ length: LIVE_STREAMS_PER_USER + 2 }, () => open()));
    // What each stream sends at once: a refusal's end event, or an accepted stream's retry.
    const firsts = await Promise.all(streams.map(({ events }) => events.opening()));
    const refused = firsts.filter((event) => event?.event === "end");
    expect(refused).toHaveLength(2);
    expect(firsts.filter((event) => event?.retry !== undefined)).toHaveLength(LIVE_STREAMS_PER_USER);
    expect(JSON.parse(refused[0]!.data!)).toMatchObject({ reason: "too_many", message: expect.stringContaining(`${LIVE_STREAMS_PER_USER} live views`) });
    await streams[firsts.findIndex((event) => event?.event !== "end")]!.close();
    // A closed stream gives its place back once its row is gone (released after the close, lib/live-tail/stream.ts).
    expect(await until(async () => (await streamRowsOf(user.id)).length === LIVE_STREAMS_PER_USER - 1, 5000)).toBe(true);
    const again = await open();
    expect(await again.events.opening()).toMatchObject({ retry: expect.any(String) });
    for (const stream of [...streams, again]) await stream.close().catch(() => {});
  });

  it("holds the cap against clients that never read: their streams stay counted past a dead process's 30 s", async () => {
    const { team, user, key, open } = await watcher();
    await backlog(team.org.id, key.id);
    const stalled = await Promise.all(Array.from({ length: LIVE_STREAMS_PER_USER }, () => open({ since: "0" })));
    // Time moves on in the rows: as if their process had not touched them for an hour.
    await getDb()
      .update(liveTailStreams)
      .set({ seenAt: sql`now() - interval '1 hour'` })
      .where(eq(liveTailStreams.userId, user.id));
    const fresh = async () => (await streamRowsOf(user.id)).every(({ seenAt }) => Date.now() - seenAt.getTime() < 10_000);
    // Their timers mark them alive again: the cap must hold although no process had touched them.
    expect(await until(fresh, 5000)).toBe(true);
    const sixth = await open();
    expect(await sixth.events.next(1000)).toMatchObject({ event: "end", data: expect.stringContaining('"reason":"too_many"') });
    expect(await streamRowsOf(user.id)).toHaveLength(LIVE_STREAMS_PER_USER);
    expect((await stalled[0]!.events.next(1000))?.event).toBe("request");
    for (const stream of stalled) await stream.close();
  });

  it("ends a stalled stream once its viewer is removed, with nothing more sent", async () => {
    const { team, user, key, open } = await watcher();
    await backlog(team.org.id, key.id);
    const stalled = await open({ since: "0" });
    actAs(team.owner.id);
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: user.id }))).toMatchObject({ ok: true });
    expect(await until(async () => (await streamRowsOf(user.id)).length === 0, 5000)).toBe(true);
    // The rows queued for it went with the stream.
    await expect(stalled.events.next(1000)).rejects.toMatchObject({ name: "AbortError" });
  });

  it("ends the stream of a client that takes nothing from its full queue for too long", async () => {
    const { team, user, sessionId, key } = await watcher();
    await backlog(team.org.id, key.id);
    const viewer = { userId: user.id, sessionId, orgId: team.org.id, orgSlug: team.org.slug };
    const { stream } = await openLiveTail(viewer, { mode: "live" }, 0, new AbortController().signal, { checkMs: 100, slowConsumerMs: 500 });
    expect(await until(async () => (await streamRowsOf(user.id)).length === 0, 5000)).toBe(true);
    await expect(sseReader(stream).next(1000)).rejects.toMatchObject({ name: "AbortError", message: expect.stringContaining("took nothing") });
  });

  it("clears the streams a dead process left behind, so they no longer count", async () => {
    const { team, user, open } = await watcher();
    const dead = Array.from({ length: LIVE_STREAMS_PER_USER }, (_, i) => ({
      id: `lts_dead_${i}_${user.id}`,
      userId: user.id,
      orgId: team.org.id,
      seenAt: sql`now() - interval '1 minute'`,
    }));
    await getDb().insert(liveTailStreams).values(dead);
    const tail = await open();
    expect(await tail.events.opening()).toMatchObject({ retry: expect.any(String) });
    expect(await streamRowsOf(user.id)).toEqual([expect.objectContaining({ id: expect.not.stringMatching(/^lts_dead_/) })]);
    await tail.close();
  });

  it("ends the stream of a member without two-factor once the organization requires it", async () => {
    const { team, open } = await watcher();
    const tail = await open();
    await giveSecondFactor(team.owner.id);
    actAs(team.owner.id);
    expect(await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "on" }))).toMatchObject({ ok: true });
    expect(JSON.parse((await endOf(tail.events, 5000))!.data!)).toMatchObject({ reason: "no_access" });
  });

  it("carries only its own organization's rows while another organization is busy in the same moment", async () => {
    const [mine, theirs] = [await watcher(), await watcher()];
    const tail = await mine.open();
    const logged = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        logRequest({ orgId: (i % 2 ? theirs : mine).team.org.id, apiKeyId: (i % 2 ? theirs : mine).key.id, at: new Date() }),
      ),
    );
    const received = await requestsOf(tail.events, 20);
    const ours = logged.filter(({ orgId }) => orgId === mine.team.org.id).map(({ requestId }) => requestId);
    expect(received.map(({ row }) => row.requestId).sort()).toEqual(ours.sort());
    expect(await requestsOf(tail.events, 1, 600)).toEqual([]);
    await tail.close();
  });

  it("reads no further than a slow client's queue, then delivers everything in order", async () => {
    const { team, user, sessionId, key } = await watcher();
    const connection = new AbortController();
    const { stream, stats } = await openLiveTail(
      { userId: user.id, sessionId, orgId: team.org.id, orgSlug: team.org.slug },
      { mode: "live" },
      null,
      connection.signal,
    );
    const reader = sseReader(stream);
    await Promise.all(Array.from({ length: 1500 }, () => logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date() })));
    // Until the tail has read, then queued nothing for two of an idle tail's 400 ms reads (POLL_MS, lib/live-tail/stream.ts).
    expect(await until(async () => stats.rowsQueued > 0, 5000)).toBe(true);
    expect(await quiet(() => stats.rowsQueued, 800, 10_000)).toBe(true);
    // 64 KiB of queue is about 150 rows, plus the page being read.
    expect(stats.rowsQueued).toBeLessThan(400);
    const rows = await requestsOf(reader, 1500, 15_000);
    expect(rows).toHaveLength(1500);
    expect(rows.map(({ id }) => id)).toEqual([...rows.map(({ id }) => id)].sort((a, b) => a - b));
    connection.abort();
    await reader.cancel();
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the log writer's commit order", () => {
  it("gives a batch its ids only once the batch before it has committed", async () => {
    const { team, key } = await watcher();
    const sql = postgresClient()!;
    const held = await sql.reserve();
    await held`begin`;
    await held`select pg_advisory_xact_lock(${REQUEST_LOG_ORDER_LOCK})`;
    let written = false;
    const writing = logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date() }).then(() => (written = true));
    // The writer's statement is queued behind the held lock (an advisory lock's key sits in objid).
    const waiting = async () =>
      (
        await held<
          { count: number }[]
        >`select count(*)::int as count from pg_locks where locktype = 'advisory' and objid = ${REQUEST_LOG_ORDER_LOCK} and not granted and database = (select oid from pg_database where datname = current_database())`
      )[0]!.count > 0;
    expect(await until(waiting, 5000)).toBe(true);
    expect(written).toBe(false);
    await held`commit`;
    held.release();
    await writing;
    expect(written).toBe(true);
  });
});
