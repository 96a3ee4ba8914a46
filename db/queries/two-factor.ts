import "server-only";
import { and, count, eq, isNotNull, isNull, lt, or, sql, type SQLWrapper } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { passkeys, recoveryCodes, totpFactors, users } from "@/db/schema";

/** What a person has set up as second factors (docs/features/two-factor.md): never a secret, only whether and how many. */
export interface TwoFactorStatusDto {
  totp: { confirmedAt: Date } | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(userId: string, db: DbOrTx = getDb()): Promise<TwoFactorStatusDto> {
  const [[totp], [codes]] = await Promise.all([
    db
      .select({ confirmedAt: totpFactors.confirmedAt })
      .from(totpFactors)
      .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt))),
    db
      .select({ left: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  ]);
  return { totp: totp?.confirmedAt ? { confirmedAt: totp.confirmedAt } : null, recoveryCodesLeft: codes?.left ?? 0 };
}

/** Whether the person `userId` names has a confirmed authenticator app, as a condition inside another query. */
function hasTotpSql(userId: SQLWrapper) {
  return sql<boolean>`exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId} and ${totpFactors.confirmedAt} is not null)`;
}

/** Whether the person `userId` names has a passkey, as a condition inside another query. */
function hasPasskeySql(userId: SQLWrapper) {
  return sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`;
}

/**
 * Whether the person `userId` names has a second factor that signs in, as a condition inside
 * another query (the membership read on every page, the Members page): the one definition.
 */
export function hasSecondFactorSql(userId: SQLWrapper) {
  return sql<boolean>`(${hasTotpSql(userId)} or ${hasPasskeySql(userId)})`;
}

/** Whether the person has a second factor that signs in: sign-in then takes two steps. */
export async function hasSecondFactor(userId: string, db: DbOrTx = getDb()): Promise<boolean> {
  const [row] = await db.select({ has: hasSecondFactorSql(sql`${userId}`) }).from(sql`(select 1) as one`);
  return Boolean(row?.has);
}

/** Which second factors a person has, for the forms that ask for one: each offers those (and recovery codes). */
export interface SecondFactorMethodsDto {
  totp: boolean;
  passkey: boolean;
}

export async function secondFactorMethods(userId: string): Promise<SecondFactorMethodsDto> {
  const [row] = await getDb()
    .select({
      totp: hasTotpSql(sql`${userId}`),
      passkey: hasPasskeySql(sql`${userId}`),
    })
    .from(sql`(select 1) as one`);
  return { totp: Boolean(row?.totp), passkey: Boolean(row?.passkey) };
}

/**
 * The ways a person can answer sudo mode's question, read in one statement for every dashboard
 * page: their second factors, and whether they have a password (one who joined through an
 * identity provider may have none, docs/features/sso.md#who-signs-in).
 */
export async function identityProofMethods(userId: string): Promise<SecondFactorMethodsDto & { password: boolean }> {
  const [row] = await getDb()
    .select({
      totp: hasTotpSql(sql`${userId}`),
      passkey: hasPasskeySql(sql`${userId}`),
      password: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.passwordHash} is not null)`,
    })
    .from(sql`(select 1) as one`);
  return { totp: Boolean(row?.totp), passkey: Boolean(row?.passkey), password: Boolean(row?.password) };
}

/** The same, by the email a sign-in used. */
export async function emailHasSecondFactor(email: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ has: hasSecondFactorSql(users.id) })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  return Boolean(row?.has);
}

/**
 * Starts (or starts again) setting up an authenticator app with a new sealed secret. Refused (false)
 * when one is already confirmed: removing it comes first.
 */
export async function startTotpSetup(userId: string, sealedSecret: string): Promise<boolean> {
  const rows = await getDb()
    .insert(totpFactors)
    .values({ userId, sealedSecret })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { sealedSecret, createdAt: sql`now()`, lastUsedStep: null },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  return rows.length > 0;
}

/** The sealed secret of the person's authenticator: the one being set up, or the confirmed one. */
export async function sealedTotpSecret(userId: string, state: "setup" | "confirmed", db: DbOrTx = getDb()): Promise<string | null> {
  const [row] = await db
    .select({ sealedSecret: totpFactors.sealedSecret })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), state === "setup" ? isNull(totpFactors.confirmedAt) : isNotNull(totpFactors.confirmedAt)));
  return row?.sealedSecret ?? null;
}

/**
 * Takes a code's 30-second step for the person's authenticator, once: true only for the first use
 * of a step later than every step used before, under the row's lock, so a code (or an older one)
 * never passes twice however many requests present it at once. `state` says which authenticator:
 * the one being confirmed or the one that signs in.
 */
export async function takeTotpStep(db: DbOrTx, userId: string, step: number, state: "setup" | "confirmed"): Promise<boolean> {
  const rows = await db
    .update(totpFactors)
    .set({ lastUsedStep: step, ...(state === "setup" ? { confirmedAt: sql`now()` } : {}) })
    .where(
      and(
        eq(totpFactors.userId, userId),
        state === "setup" ? isNull(totpFactors.confirmedAt) : isNotNull(totpFactors.confirmedAt),
        or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return rows.length > 0;
}

/** After a second factor is removed: the recovery codes go with the person's last one (they stand in for it). */
export async function dropRecoveryCodesWithoutFactor(tx: Tx, userId: string): Promise<void> {
  if (!(await hasSecondFactor(userId, tx))) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Removes the person's authenticator app; their recovery codes go with their last second factor. */
export async function removeTotp(tx: Tx, userId: string): Promise<boolean> {
  const removed = await tx
    .delete(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
    .returning({ userId: totpFactors.userId });
  if (removed.length > 0) await dropRecoveryCodesWithoutFactor(tx, userId);
  return removed.length > 0;
}

/** Replaces every recovery code of the person with these (hashed) ones. */
export async function replaceRecoveryCodes(tx: Tx, userId: string, codeHashes: string[]): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses a recovery code: true once per code, under the row's lock, then never again. */
export async function takeRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ userId: recoveryCodes.userId });
  return rows.length > 0;
}
