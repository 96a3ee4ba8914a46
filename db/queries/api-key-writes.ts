import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { apiKeys, budgetColumns, budgetOfColumns } from "@/db/schema";
import type { KeyRestrictions, Mode, RevokeReason } from "@/core/enums";
import { budgetPeriodStart, type KeyBudget } from "@/core/key-budget";
import { keyStatus, type ApiKeyStatus } from "@/core/key-status";

/** What the key changes write (create, roll, revoke, rename, restrict); what the dashboard reads of keys is db/queries/api-keys.ts. */

export async function insertApiKey(
  tx: DbOrTx,
  key: {
    id: string;
    orgId: string;
    name: string;
    mode: Mode;
    keyHash: string;
    hint: string;
    createdBy: string;
    expiresAt: Date | null;
    replacesKeyId?: string;
    budget: KeyBudget | null;
  } & KeyRestrictions,
): Promise<void> {
  const { budget, ...columns } = key;
  await tx.insert(apiKeys).values({ ...columns, ...budgetColumns(budget) });
}

/**
 * A rolled key's replacement takes over the old key's count of the current period (docs/features/key-budgets.md), so
 * a roll is no way around a budget. During the overlap each key counts on its own from there.
 */
export async function carryBudgetUsage(tx: DbOrTx, orgId: string, fromKeyId: string, toKeyId: string, budget: KeyBudget, now: Date): Promise<void> {
  const start = budgetPeriodStart(now, budget.period).toISOString();
  await tx.execute(sql`
    insert into key_budget_usage (org_id, api_key_id, period_start, used, prior, budget_limit)
    select org_id, ${toKeyId}, period_start, used, 0, budget_limit from key_budget_usage
    where org_id = ${orgId} and api_key_id = ${fromKeyId} and period_start = ${start}::timestamptz`);
}

/** Who revoked a key (null: the system, for a leak) and why. */
export interface KeyRevocation {
  userId: string | null;
  reason: RevokeReason | null;
  note: string | null;
}

/** Ends a key now, with the person's reason; returns it with the status it had (active, or expired already), or null if it was revoked before. */
export async function markApiKeyRevoked(
  tx: DbOrTx,
  orgId: string,
  keyId: string,
  revocation: KeyRevocation,
  now = new Date(),
): Promise<{ id: string; name: string; hint: string; mode: Mode; statusBefore: ApiKeyStatus } | null> {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: now, revokedBy: revocation.userId, revokeReason: revocation.reason, revokeNote: revocation.note })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, hint: apiKeys.hint, mode: apiKeys.mode, expiresAt: apiKeys.expiresAt });
  return row
    ? { id: row.id, name: row.name, hint: row.hint, mode: row.mode, statusBefore: keyStatus({ revokedAt: null, expiresAt: row.expiresAt }, now) }
    : null;
}

/** Renames a key that is not revoked; returns its name before, or null when the organization has no such key left to rename. */
export async function renameApiKey(tx: DbOrTx, orgId: string, keyId: string, name: string): Promise<{ nameBefore: string } | null> {
  const renamable = and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt));
  // Locked first, so the name recorded as "before" is the one this rename replaced.
  const [current] = await tx.select({ name: apiKeys.name }).from(apiKeys).where(renamable).for("update");
  if (!current) return null;
  await tx.update(apiKeys).set({ name }).where(renamable);
  return { nameBefore: current.name };
}

/**
 * Sets what a key may do, from where and how much (docs/features/restricted-keys.md, docs/features/key-budgets.md), unless it is revoked; returns
 * what it was, or null when the organization has no such key left to change.
 */
export async function setKeyAccess(
  tx: DbOrTx,
  orgId: string,
  keyId: string,
  access: KeyRestrictions & { budget: KeyBudget | null },
): Promise<{ name: string; before: KeyRestrictions & { budget: KeyBudget | null } } | null> {
  const changeable = and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt));
  const [current] = await tx
    .select({
      name: apiKeys.name,
      access: apiKeys.access,
      scopes: apiKeys.scopes,
      ipAllowlist: apiKeys.ipAllowlist,
      budgetLimit: apiKeys.budgetLimit,
      budgetPeriod: apiKeys.budgetPeriod,
    })
    .from(apiKeys)
    .where(changeable)
    .for("update");
  if (!current) return null;
  const { budget, ...restrictions } = access;
  await tx
    .update(apiKeys)
    .set({ ...restrictions, ...budgetColumns(budget) })
    .where(changeable);
  const { name, budgetLimit, budgetPeriod, ...before } = current;
  return { name, before: { ...before, budget: budgetOfColumns({ budgetLimit, budgetPeriod }) } };
}

export interface RollableKeyRow extends KeyRestrictions {
  budget: KeyBudget | null;
  id: string;
  name: string;
  /** The replacement's mode: a roll never turns a live key into a test key or back. */
  mode: Mode;
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedById: string | null;
}

/** Locks a key for its roll and says what a roll needs to know: whether it still works and whether it was rolled before. */
export async function lockKeyForRoll(tx: DbOrTx, orgId: string, keyId: string): Promise<RollableKeyRow | null> {
  const [row] = await tx
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      mode: apiKeys.mode,
      hint: apiKeys.hint,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      access: apiKeys.access,
      scopes: apiKeys.scopes,
      ipAllowlist: apiKeys.ipAllowlist,
      budgetLimit: apiKeys.budgetLimit,
      budgetPeriod: apiKeys.budgetPeriod,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId)))
    .for("update");
  if (!row) return null;
  const [next] = await tx
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.replacesKeyId, keyId)));
  const { budgetLimit, budgetPeriod, ...key } = row;
  return { ...key, budget: budgetOfColumns({ budgetLimit, budgetPeriod }), replacedById: next?.id ?? null };
}

/** Moves a key's end to `at` (a roll's overlap end). */
export async function endApiKeyAt(tx: DbOrTx, orgId: string, keyId: string, at: Date): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ expiresAt: at })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId)));
}
