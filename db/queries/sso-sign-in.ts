import "server-only";
import { and, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import type { SsoRole } from "@/core/sso";
import { organizations, ssoConnections, ssoDomains, ssoFlows, ssoIdentities } from "@/db/schema";

/**
 * What signing in through an organization's provider reads and writes (docs/features/sso.md#signing-in):
 * the provider found by a verified email domain, the flows under way, and who a provider's subject is.
 */

/** How long a browser has at the provider before its flow is forgotten. */
export const SSO_FLOW_SECONDS = 10 * 60;
/** How long the ticket a finished flow leaves may be exchanged for the session. */
export const SSO_TICKET_SECONDS = 60;

/** The provider's settings as the sign-in needs them, the secret still sealed. */
export interface SignInConnection {
  orgId: string;
  orgName: string;
  issuer: string;
  clientId: string;
  sealedClientSecret: string;
  defaultRole: SsoRole;
  requireSso: boolean;
}

const SIGN_IN_CONNECTION = {
  orgId: ssoConnections.orgId,
  orgName: organizations.name,
  issuer: ssoConnections.issuer,
  clientId: ssoConnections.clientId,
  sealedClientSecret: ssoConnections.sealedClientSecret,
  defaultRole: ssoConnections.defaultRole,
  requireSso: ssoConnections.requireSso,
};

/** The connection of the organization that verified `domain`, or null when none has, or it has no provider. */
export async function connectionForVerifiedDomain(domain: string): Promise<SignInConnection | null> {
  const [row] = await getDb()
    .select(SIGN_IN_CONNECTION)
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.orgId, ssoDomains.orgId))
    .innerJoin(organizations, eq(organizations.id, ssoDomains.orgId))
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)));
  return row ? { ...row, defaultRole: row.defaultRole as SsoRole } : null;
}

/** The organization's connection, or null when it has none. */
export async function connectionOf(db: DbOrTx, orgId: string): Promise<SignInConnection | null> {
  const [row] = await db
    .select(SIGN_IN_CONNECTION)
    .from(ssoConnections)
    .innerJoin(organizations, eq(organizations.id, ssoConnections.orgId))
    .where(eq(ssoConnections.orgId, orgId));
  return row ? { ...row, defaultRole: row.defaultRole as SsoRole } : null;
}

/** Whether the organization has verified `domain`. */
export async function hasVerifiedDomain(db: DbOrTx, orgId: string, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)));
  return row !== undefined;
}

export type NewSsoFlow = Pick<typeof ssoFlows.$inferInsert, "state" | "orgId" | "purpose" | "codeVerifier" | "nonce" | "returnTo" | "sessionId" | "userId">;

/** Records a flow about to leave for the provider, and forgets the ones abandoned long ago. */
export async function insertSsoFlow(flow: NewSsoFlow): Promise<void> {
  await getDb().insert(ssoFlows).values(flow);
  await getDb()
    .delete(ssoFlows)
    .where(lt(ssoFlows.createdAt, sql`now() - interval '1 day'`));
}

export type ClaimedSsoFlow = Pick<typeof ssoFlows.$inferSelect, "state" | "orgId" | "purpose" | "codeVerifier" | "nonce" | "returnTo" | "sessionId" | "userId">;

/**
 * Takes the flow `state` names for its callback, once: the statement that marks it complete is
 * the one that finds it, so a second callback with the same state (a replayed code) gets null, as
 * does a flow older than SSO_FLOW_SECONDS.
 */
export async function claimSsoFlow(state: string): Promise<ClaimedSsoFlow | null> {
  const [row] = await getDb()
    .update(ssoFlows)
    .set({ completedAt: sql`now()` })
    .where(and(eq(ssoFlows.state, state), isNull(ssoFlows.completedAt), gt(ssoFlows.createdAt, sql`now() - ${SSO_FLOW_SECONDS}::int * interval '1 second'`)))
    .returning({
      state: ssoFlows.state,
      orgId: ssoFlows.orgId,
      purpose: ssoFlows.purpose,
      codeVerifier: ssoFlows.codeVerifier,
      nonce: ssoFlows.nonce,
      returnTo: ssoFlows.returnTo,
      sessionId: ssoFlows.sessionId,
      userId: ssoFlows.userId,
    });
  return row ?? null;
}

/** A refused callback leaves nothing behind. */
export async function deleteSsoFlow(state: string): Promise<void> {
  await getDb().delete(ssoFlows).where(eq(ssoFlows.state, state));
}

/** The flow found its person: the ticket (by its hash) that stands for them until the session is made. */
export async function leaveSsoTicket(state: string, ticketHash: string, userId: string): Promise<void> {
  await getDb().update(ssoFlows).set({ ticketHash, userId }).where(eq(ssoFlows.state, state));
}

/** Exchanges a ticket once, within SSO_TICKET_SECONDS of its flow's callback: its person and organization, or null. */
export async function redeemSsoTicket(ticketHash: string): Promise<{ userId: string; orgId: string } | null> {
  const [row] = await getDb()
    .delete(ssoFlows)
    .where(
      and(
        eq(ssoFlows.ticketHash, ticketHash),
        eq(ssoFlows.purpose, "sign_in"),
        gt(ssoFlows.completedAt, sql`now() - ${SSO_TICKET_SECONDS}::int * interval '1 second'`),
      ),
    )
    .returning({ userId: ssoFlows.userId, orgId: ssoFlows.orgId });
  return row?.userId ? { userId: row.userId, orgId: row.orgId } : null;
}

/** The person a provider's subject stands for in the organization, or null the first time. */
export async function findSsoIdentity(db: DbOrTx, orgId: string, issuer: string, subject: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.orgId, orgId), eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));
  return row?.userId ?? null;
}

/** The subject the person is at the organization's provider, or null when they never signed in through it. */
export async function ssoSubjectOf(db: DbOrTx, orgId: string, userId: string): Promise<{ issuer: string; subject: string } | null> {
  const [row] = await db
    .select({ issuer: ssoIdentities.issuer, subject: ssoIdentities.subject })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.orgId, orgId), eq(ssoIdentities.userId, userId)));
  return row ?? null;
}

/** Links a subject to a person; nothing when the subject is linked already or the person has another subject here (the caller reads which). */
export async function insertSsoIdentity(db: DbOrTx, identity: { orgId: string; issuer: string; subject: string; userId: string }): Promise<void> {
  await db.insert(ssoIdentities).values(identity).onConflictDoNothing();
}

export async function touchSsoIdentity(db: DbOrTx, orgId: string, issuer: string, subject: string): Promise<void> {
  await db
    .update(ssoIdentities)
    .set({ lastSignInAt: sql`now()` })
    .where(and(eq(ssoIdentities.orgId, orgId), eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));
}
