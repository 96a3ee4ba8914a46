import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { SESSION_IDLE_SECONDS, sessions, users } from "@/db/schema";
import { newId } from "@/core/ids";

const USER_AGENT_MAX = 512;

/**
 * Starts a session for a user who just signed in, records the sign-in for the Members page
 * (SPEC §12), and forgets their sessions that ended unused.
 */
export async function createSession(userId: string, client: { ip: string | null; userAgent: string | null }): Promise<string> {
  const id = newId("ses");
  await getDb()
    .insert(sessions)
    .values({ id, userId, ip: client.ip, userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null });
  await getDb().update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, userId));
  await getDb()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), lt(sessions.lastSeenAt, sql`now() - ${SESSION_IDLE_SECONDS}::int * interval '1 second'`)));
  return id;
}

/**
 * The user of a live session: one that exists, belongs to this user and was used within
 * SESSION_IDLE_SECONDS. Records the use at most once an hour, in the same statement, so a
 * page view costs one indexed read.
 */
export async function liveSessionUserId(sessionId: string, userId: string): Promise<string | null> {
  const rows = rowsOf<{ user_id: string }>(
    await getDb().execute(sql`
      with live as (
        select id, user_id, last_seen_at from sessions
        where id = ${sessionId} and user_id = ${userId} and last_seen_at > now() - ${SESSION_IDLE_SECONDS}::int * interval '1 second'
      ), touched as (
        update sessions set last_seen_at = now()
        where id in (select id from live where last_seen_at < now() - interval '1 hour')
      )
      select user_id from live`),
  );
  return rows[0]?.user_id ?? null;
}

/** Signing out: this session ends at once, wherever its cookie is. */
export async function endSession(sessionId: string): Promise<void> {
  await getDb().delete(sessions).where(eq(sessions.id, sessionId));
}

/** "Sign out everywhere": every session of the user ends at once. */
export async function endAllSessions(userId: string): Promise<void> {
  await getDb().delete(sessions).where(eq(sessions.userId, userId));
}
