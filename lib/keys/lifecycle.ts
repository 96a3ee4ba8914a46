import "server-only";
import type { z } from "zod";
import { countActiveKeys, getApiKey, type ApiKeyDto } from "@/db/queries/api-keys";
import {
  carryBudgetUsage,
  endApiKeyAt,
  insertApiKey,
  lockKeyForRoll,
  markApiKeyRevoked,
  renameApiKey,
  setKeyAccess,
  type KeyRevocation,
} from "@/db/queries/api-key-writes";
import type { KeyRestrictions, Mode, Plan } from "@/core/enums";
import type { Tx } from "@/db";
import { restrictionChanges } from "@/lib/keys/access";
import { lockOrganization } from "@/db/queries/organizations";
import { requirePermission, type ActionContext, type Change } from "@/lib/action";
import type { ActivityChange } from "@/core/activity";
import { describeBudget, type KeyBudget } from "@/core/key-budget";
import { mintApiKey } from "@/lib/keys/format";
import { UserFacingError } from "@/lib/errors";
import { newId } from "@/core/ids";
import { keyStatus } from "@/core/key-status";
import { enqueueWebhookEvent } from "@/lib/webhooks/queue";
import { keyExpiresAt } from "@/lib/keys/expiry";
import { fitToPolicy, policyBreach } from "@/lib/keys/policy";
import { rolledKeyEndsAt, replacementExpiresAt } from "@/lib/keys/roll";
import { keyLimitReached, PLANS, plansWith } from "@/lib/plans/catalog";
import type { createApiKeyInput, renameApiKeyInput, revokeApiKeyInput, rollApiKeyInput, updateKeyRestrictionsInput } from "@/lib/keys/input";

/** What a key's webhook events say of it (docs/features/webhooks.md): never its value. */
function keyEventData(key: ApiKeyDto, by: string) {
  return { id: key.id, name: key.name, mode: key.mode, hint: key.hint, access: key.access, expiresAt: key.expiresAt, actorUserId: by };
}

/** A new key's value, hash and hint, stored; the value is returned once, to be shown once. */
async function mintKey(
  ctx: ActionContext,
  key: { name: string; mode: Mode; expiresAt: Date | null; replacesKeyId?: string; budget: KeyBudget | null } & KeyRestrictions,
): Promise<{ key: ApiKeyDto; value: string }> {
  const { value, hash, hint } = mintApiKey(key.mode);
  const id = newId("key");
  await insertApiKey(ctx.tx, { id, orgId: ctx.orgId, keyHash: hash, hint, createdBy: ctx.userId, ...key });
  if (key.replacesKeyId && key.budget) await carryBudgetUsage(ctx.tx, ctx.orgId, key.replacesKeyId, id, key.budget, new Date());
  return { key: (await getApiKey(ctx.orgId, id, ctx.tx))!, value };
}

const KEY_NOT_FOUND = "API key not found in this organization.";

/**
 * Why a change that matched no live key was refused: the key exists but is revoked (worded by
 * `revoked`), or it is not this organization's.
 */
async function revokedOrMissing(ctx: ActionContext, keyId: string, revoked: (name: string) => string): Promise<UserFacingError> {
  const existing = await getApiKey(ctx.orgId, keyId, ctx.tx);
  return new UserFacingError(existing ? revoked(existing.name) : KEY_NOT_FOUND);
}

function requireApiAccess(plan: Plan): void {
  const limits = PLANS[plan];
  if (!limits.apiAccess) {
    throw new UserFacingError(`Your ${limits.label} plan has no API access, so it cannot have API keys. Switch to ${plansWith("apiAccess")} to create one.`);
  }
}

/** A budget as the history records it: "3 requests per day", or null for none. */
const budgetEntry = (budget: KeyBudget | null) => (budget ? describeBudget(budget) : null);

/**
 * Refuses a key of `mode` beyond the plan's maximum, counted in that mode alone. Counted under the
 * organization's row lock, so two creations at once cannot both take the last place.
 */
async function requireRoomForKey(ctx: ActionContext, plan: Plan, mode: Mode): Promise<void> {
  if (PLANS[plan].maxActiveKeys === null) return;
  const full = keyLimitReached(plan, mode, (await countActiveKeys(ctx.tx, ctx.orgId))[mode]);
  if (full) throw new UserFacingError(full, { mode: [full] });
}

export async function createKey(
  { name, mode, expiresIn, expiresOn, access, scopes, ipAllowlist, budget }: z.output<typeof createApiKeyInput>,
  ctx: ActionContext,
): Promise<Change<{ key: ApiKeyDto; value: string }>> {
  if (budget) requirePermission(ctx, "keys.budget");
  const { plan, keyPolicy } = await lockOrganization(ctx.tx, ctx.orgId);
  requireApiAccess(plan);
  await requireRoomForKey(ctx, plan, mode);
  const now = new Date();
  const expiresAt = keyExpiresAt(expiresIn, expiresOn, now);
  const breach = policyBreach(keyPolicy, { createdAt: now, expiresAt });
  if (breach) {
    const field = expiresIn === "date" ? "expiresOn" : "expiresIn";
    throw new UserFacingError(`This key would be outside your organization's key policy. ${breach}`, { [field]: [breach] });
  }
  const restrictions = { access, scopes, ipAllowlist };
  const created = await mintKey(ctx, { name, mode, expiresAt, budget, ...restrictions });
  const { key } = created;
  await enqueueWebhookEvent(ctx.tx, ctx.orgId, { type: "key.created", mode: key.mode, data: keyEventData(key, ctx.userId) }, now);
  return {
    // The only place besides a roll where a value leaves the server: the one-time display of the dialog.
    data: created,
    activity: {
      action: "api_key.created",
      target: { type: "api_key", id: key.id, name },
      after: {
        name,
        mode,
        hint: key.hint,
        expiresAt: key.expiresAt,
        ...restrictionChanges(null, restrictions).after,
        ...(budget ? { budget: budgetEntry(budget) } : {}),
      },
    },
  };
}

/**
 * A replacement with the same name, mode and lifetime, its value shown once, and the old key
 * ending after the overlap. During the overlap both count as active: a roll is never refused for
 * the plan's key limit, since the old key is on its way out. A lifetime outside the key policy is
 * brought within it: rolling is how an owner brings an old key into line.
 */
export async function rollKey(
  { keyId, overlap }: z.output<typeof rollApiKeyInput>,
  ctx: ActionContext,
): Promise<Change<{ key: ApiKeyDto; value: string; oldKey: { id: string; endsAt: string } }>> {
  const { plan, keyPolicy } = await lockOrganization(ctx.tx, ctx.orgId);
  requireApiAccess(plan);
  const now = new Date();
  const old = await lockKeyForRoll(ctx.tx, ctx.orgId, keyId);
  if (!old) throw new UserFacingError(KEY_NOT_FOUND);
  if (old.revokedAt) throw new UserFacingError(`"${old.name}" is revoked: create a new key instead.`);
  if (old.replacedById) throw new UserFacingError(`"${old.name}" was rolled already: roll its replacement instead.`);
  if (keyStatus(old, now) === "expired") throw new UserFacingError(`"${old.name}" has expired: create a new key instead.`);

  const endsAt = rolledKeyEndsAt(overlap, old.expiresAt, now);
  await endApiKeyAt(ctx.tx, ctx.orgId, old.id, endsAt);
  // The replacement can do what the old key could, from where it could, on the same books (docs/features/api-keys.md#roll).
  const restrictions = { access: old.access, scopes: old.scopes, ipAllowlist: old.ipAllowlist };
  const created = await mintKey(ctx, {
    name: old.name,
    mode: old.mode,
    expiresAt: fitToPolicy(keyPolicy, replacementExpiresAt(old, now), now),
    replacesKeyId: old.id,
    budget: old.budget,
    ...restrictions,
  });
  const { key } = created;
  await enqueueWebhookEvent(
    ctx.tx,
    ctx.orgId,
    { type: "key.rolled", mode: key.mode, data: { ...keyEventData(key, ctx.userId), replaces: { id: old.id, hint: old.hint, endsAt: endsAt.toISOString() } } },
    now,
  );
  return {
    data: { ...created, oldKey: { id: old.id, endsAt: endsAt.toISOString() } },
    activity: [
      {
        action: "api_key.rolled",
        target: { type: "api_key", id: old.id, name: old.name },
        before: { expiresAt: old.expiresAt?.toISOString() ?? null },
        after: { expiresAt: endsAt.toISOString(), replacedBy: key.hint },
      },
      {
        action: "api_key.created",
        target: { type: "api_key", id: key.id, name: key.name },
        after: {
          name: key.name,
          mode: key.mode,
          hint: key.hint,
          expiresAt: key.expiresAt,
          replaces: old.hint,
          ...restrictionChanges(null, restrictions).after,
          ...(old.budget ? { budget: budgetEntry(old.budget) } : {}),
        },
      },
    ],
  };
}

/**
 * Revokes the key in `tx`: its row, its `key.revoked` event and its history change, as a person's
 * revoke and a secret scanner's report of a leak (lib/secret-scanning/act-on-report.ts) both do.
 * Null when the organization has no such key still unrevoked.
 */
export async function revokeApiKey(
  tx: Tx,
  orgId: string,
  keyId: string,
  revocation: KeyRevocation,
  at = new Date(),
): Promise<{ data: { id: string; name: string }; activity: ActivityChange } | null> {
  const revoked = await markApiKeyRevoked(tx, orgId, keyId, revocation, at);
  if (!revoked) return null;
  await enqueueWebhookEvent(
    tx,
    orgId,
    {
      type: "key.revoked",
      mode: revoked.mode,
      data: { id: revoked.id, name: revoked.name, mode: revoked.mode, hint: revoked.hint, reason: revocation.reason, actorUserId: revocation.userId },
    },
    at,
  );
  return {
    data: { id: revoked.id, name: revoked.name },
    activity: {
      action: "api_key.revoked",
      target: { type: "api_key", id: revoked.id, name: revoked.name },
      before: { status: revoked.statusBefore },
      after: { status: "revoked", ...(revocation.reason ? { reason: revocation.reason } : {}), ...(revocation.note ? { note: revocation.note } : {}) },
    },
  };
}

export async function revokeKey(
  { keyId, reason, note }: z.output<typeof revokeApiKeyInput>,
  ctx: ActionContext,
): Promise<Change<{ id: string; name: string }>> {
  const revoked = await revokeApiKey(ctx.tx, ctx.orgId, keyId, { userId: ctx.userId, reason: reason ?? null, note: note ?? null });
  if (!revoked) throw await revokedOrMissing(ctx, keyId, (name) => `"${name}" is already revoked.`);
  return revoked;
}

export async function renameKey({ keyId, name }: z.output<typeof renameApiKeyInput>, ctx: ActionContext): Promise<Change<{ id: string; name: string }>> {
  const renamed = await renameApiKey(ctx.tx, ctx.orgId, keyId, name);
  if (!renamed) throw await revokedOrMissing(ctx, keyId, (name) => `"${name}" is revoked: a revoked key keeps its name so its history reads as it happened.`);
  // Thrown, so the transaction ends without a change and without an entry.
  if (renamed.nameBefore === name) throw new UserFacingError(`The key is already named "${name}".`);
  return {
    data: { id: keyId, name },
    activity: { action: "api_key.renamed", target: { type: "api_key", id: keyId, name }, before: { name: renamed.nameBefore }, after: { name } },
  };
}

/**
 * What a key may do, from where and how much, changed by an owner or admin; the
 * next request is decided by the new rule. A budget raised or lowered within a period keeps the
 * period's count: the key gets the difference, or nothing more until the period ends.
 */
export async function restrictKey(
  { keyId, access, scopes, ipAllowlist, budget }: z.output<typeof updateKeyRestrictionsInput>,
  ctx: ActionContext,
): Promise<Change<{ key: ApiKeyDto }>> {
  const restrictions = { access, scopes, ipAllowlist };
  const changed = await setKeyAccess(ctx.tx, ctx.orgId, keyId, { ...restrictions, budget });
  if (!changed) throw await revokedOrMissing(ctx, keyId, (name) => `"${name}" is revoked: its access can no longer change.`);
  const target = { type: "api_key" as const, id: keyId, name: changed.name };
  const entries: ActivityChange[] = [];
  const { before, after } = restrictionChanges(changed.before, restrictions);
  if (Object.keys(after).length > 0) entries.push({ action: "api_key.restrictions_changed", target, before, after });
  const budgetBefore = budgetEntry(changed.before.budget);
  if (budgetBefore !== budgetEntry(budget)) {
    requirePermission(ctx, "keys.budget");
    entries.push({ action: "api_key.budget_changed", target, before: { budget: budgetBefore }, after: { budget: budgetEntry(budget) } });
  }
  // Thrown, so the transaction ends without a change and without an entry.
  const [first, ...rest] = entries;
  if (!first) throw new UserFacingError(`"${changed.name}" already has this access and budget.`);
  return { data: { key: (await getApiKey(ctx.orgId, keyId, ctx.tx))! }, activity: [first, ...rest] };
}
