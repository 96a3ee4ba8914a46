import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { SESSION_IDLE_SECONDS, sessions, users } from "@/db/schema";
import { newId } from "@/core/ids";

const USER_AGENT_MAX = 512;

/**
 * Starts a session for a user who just gave their password, records the sign-in for the Members
 * page (docs/features/members.md), and forgets their sessions that ended unused. With `secondFactorPending` the
 * session reaches nothing but the second-factor step until completeSecondFactor (docs/features/two-factor.md);
 * `ssoOrgId` names the organization whose provider made it (docs/features/sso.md).
 */
export async function createSession(
  userId: string,
  client: { ip: string | null; userAgent: string | null },
  { secondFactorPending, ssoOrgId = null }: { secondFactorPending: boolean; ssoOrgId?: string | null },
): Promise<string> {
  const id = newId("ses");
  await getDb()
    .insert(sessions)
    .values({ id, userId, ip: client.ip, userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null, secondFactorPending, ssoOrgId });
  await getDb().update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, userId));
  await getDb()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), lt(sessions.lastSeenAt, sql`now() - ${SESSION_IDLE_SECONDS}::int * interval '1 second'`)));
  return id;
}

export interface LiveSessionDto {
  /** Only the password has passed; the second factor has not yet (docs/features/two-factor.md). */
  secondFactorPending: boolean;
  /** When the person last proved who they are in this session: sudo mode's clock. */
  authenticatedAt: Date;
  /** The organization whose identity provider made the session, or null for a password sign-in. */
  ssoOrgId: string | null;
}

/**
 * A live session: one that exists, belongs to this user and was used within SESSION_IDLE_SECONDS.
 * Records the use at most once an hour, in the same statement, so a page view costs one indexed read.
 */
export async function liveSession(sessionId: string, userId: string): Promise<LiveSessionDto | null> {
  const rows = rowsOf<{ second_factor_pending: boolean; authenticated_at: string | Date; sso_org_id: string | null }>(
    await getDb().execute(sql`
      with live as (
        select id, last_seen_at, second_factor_pending, authenticated_at, sso_org_id from sessions
        where id = ${sessionId} and user_id = ${userId} and last_seen_at > now() - ${SESSION_IDLE_SECONDS}::int * interval '1 second'
      ), touched as (
        update sessions set last_seen_at = now()
        where id in (select id from live where last_seen_at < now() - interval '1 hour')
      )
      select second_factor_pending, authenticated_at, sso_org_id from live`),
  );
  const row = rows[0];
  return row ? { secondFactorPending: row.second_factor_pending, authenticatedAt: new Date(row.authenticated_at), ssoOrgId: row.sso_org_id } : null;
}

/**
 * Gives the session a new id, everything else kept (OWASP: a new session id on a change of
 * privilege), so a copy of a cookie that named the old id names no session any more. Null when
 * the session has ended.
 */
export async function renewSessionId(sessionId: string, userId: string): Promise<string | null> {
  const [row] = await getDb()
    .update(sessions)
    .set({ id: newId("ses") })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return row?.id ?? null;
}

/** The second factor passed: the session is a whole one from now, and sudo mode's clock starts again. */
export async function completeSecondFactor(sessionId: string, userId: string): Promise<void> {
  await getDb()
    .update(sessions)
    .set({ secondFactorPending: false, authenticatedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
}

/** The person gave their password or a second factor again (sudo mode): its clock starts again. */
export async function markAuthenticated(sessionId: string, userId: string): Promise<void> {
  await getDb()
    .update(sessions)
    .set({ authenticatedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), eq(sessions.secondFactorPending, false)));
}

/** Signing out: this session ends at once, wherever its cookie is. */
export async function endSession(sessionId: string): Promise<void> {
  await getDb().delete(sessions).where(eq(sessions.id, sessionId));
}

/** "Sign out everywhere": every session of the user ends at once. */
export async function endAllSessions(userId: string): Promise<void> {
  await getDb().delete(sessions).where(eq(sessions.userId, userId));
}
