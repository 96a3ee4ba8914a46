"use server";

import { countActiveKeys, getApiKey, insertApiKey, markApiKeyRevoked, type ApiKeyDto } from "@/db/queries/api-keys";
import { lockOrganization } from "@/db/queries/organizations";
import { orgAction, type Change } from "@/lib/action";
import { mintApiKey } from "@/lib/api-key-format";
import { UserFacingError } from "@/lib/errors";
import { newId } from "@/db/ids";
import { keyExpiresAt } from "@/lib/key-expiry";
import { PLANS, plansWith } from "@/lib/plans";
import { createApiKeyInput, revokeApiKeyInput } from "@/lib/validation";

export const createApiKeyAction = orgAction(createApiKeyInput, "keys.create", async ({ name, expiresIn, expiresOn }, ctx): Promise<Change<{ key: ApiKeyDto; value: string }>> => {
  const { plan } = await lockOrganization(ctx.tx, ctx.orgId);
  const limits = PLANS[plan];
  if (!limits.apiAccess) {
    throw new UserFacingError(`Your ${limits.label} plan has no API access, so it cannot have API keys. Switch to ${plansWith("apiAccess")} to create one.`);
  }
  if (limits.maxActiveKeys !== null && (await countActiveKeys(ctx.tx, ctx.orgId)) >= limits.maxActiveKeys) {
    throw new UserFacingError(`Your ${limits.label} plan allows ${limits.maxActiveKeys} active API keys. Revoke a key you no longer use, or change the plan.`);
  }
  const { value, hash, hint } = mintApiKey();
  const id = newId("key");
  const expiresAt = keyExpiresAt(expiresIn, expiresOn, new Date());
  await insertApiKey(ctx.tx, { id, orgId: ctx.orgId, name, keyHash: hash, hint, createdBy: ctx.userId, expiresAt });
  const key = await getApiKey(ctx.orgId, id, ctx.tx);
  return {
    // The only place the value ever leaves the server: the one-time display of the creation dialog.
    data: { key: key!, value },
    activity: { action: "api_key.created", target: { type: "api_key", id, name }, after: { name, hint, expiresAt: expiresAt?.toISOString() ?? null } },
  };
});

export const revokeApiKeyAction = orgAction(revokeApiKeyInput, "keys.revoke", async ({ keyId }, ctx): Promise<Change<{ id: string; name: string }>> => {
  const revoked = await markApiKeyRevoked(ctx.tx, ctx.orgId, keyId, ctx.userId);
  if (!revoked) {
    const existing = await getApiKey(ctx.orgId, keyId, ctx.tx);
    throw new UserFacingError(existing ? `"${existing.name}" is already revoked.` : "API key not found in this organization.");
  }
  return {
    data: { id: revoked.id, name: revoked.name },
    activity: { action: "api_key.revoked", target: { type: "api_key", id: revoked.id, name: revoked.name }, before: { status: revoked.statusBefore }, after: { status: "revoked" } },
  };
});
