import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { rowsOf } from "@/db/rows";
import { passkeys, sessions, WEBAUTHN_CHALLENGE_SECONDS } from "@/db/schema";
import { newId } from "@/core/ids";
import { dropRecoveryCodesWithoutFactor } from "./two-factor";

/** A passkey as the Security page lists it: never its key. */
export interface PasskeyDto {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What a WebAuthn ceremony needs of a person's passkey to check a signature with it. */
export interface PasskeyCredential {
  id: string;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

export async function listPasskeys(userId: string, db: DbOrTx = getDb()): Promise<PasskeyDto[]> {
  return db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
}

/** The person's passkeys with what a ceremony checks them by. */
export async function passkeyCredentials(userId: string): Promise<PasskeyCredential[]> {
  return getDb()
    .select({
      id: passkeys.id,
      credentialId: passkeys.credentialId,
      publicKey: passkeys.publicKey,
      signCount: passkeys.signCount,
      transports: passkeys.transports,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
}

export async function insertPasskey(tx: Tx, passkey: { userId: string; name: string } & Omit<PasskeyCredential, "id">): Promise<string> {
  const id = newId("pky");
  await tx.insert(passkeys).values({ id, ...passkey });
  return id;
}

/** A passkey signed: its counter moves on and the Security page shows when. */
export async function recordPasskeyUse(id: string, signCount: number): Promise<void> {
  await getDb()
    .update(passkeys)
    .set({ signCount, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, id));
}

/** Removes one of the person's passkeys; their recovery codes go with their last second factor. */
export async function removePasskey(tx: Tx, userId: string, passkeyId: string): Promise<PasskeyDto | null> {
  const [removed] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt });
  if (removed) await dropRecoveryCodesWithoutFactor(tx, userId);
  return removed ?? null;
}

/** Gives the session's browser a new WebAuthn challenge; it replaces any earlier one. */
export async function setWebauthnChallenge(sessionId: string, challenge: string): Promise<void> {
  await getDb()
    .update(sessions)
    .set({ webauthnChallenge: challenge, webauthnChallengeAt: sql`now()` })
    .where(eq(sessions.id, sessionId));
}

/**
 * Takes the session's WebAuthn challenge, once: the row's lock makes a second taker (the same
 * answer sent twice at once) find none. Null when there is none or it is too old to answer.
 */
export async function takeWebauthnChallenge(sessionId: string): Promise<string | null> {
  const rows = rowsOf<{ challenge: string | null }>(
    await getDb().execute(sql`
      with taken as (
        select id, webauthn_challenge, webauthn_challenge_at from sessions where id = ${sessionId} and webauthn_challenge is not null for update
      )
      update sessions set webauthn_challenge = null, webauthn_challenge_at = null
      from taken where sessions.id = taken.id
      returning case when taken.webauthn_challenge_at > now() - ${WEBAUTHN_CHALLENGE_SECONDS}::int * interval '1 second' then taken.webauthn_challenge end as challenge`),
  );
  return rows[0]?.challenge ?? null;
}
