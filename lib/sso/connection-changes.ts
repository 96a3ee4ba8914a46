import "server-only";
import type { z } from "zod";
import type { ActivityValues } from "@/core/activity";
import { newId } from "@/core/ids";
import { ssoCredentials } from "@/core/sealed-secret";
import type { SsoRole } from "@/core/sso";
import type { DbOrTx } from "@/db";
import { deleteSsoConnection, lockSsoConnection, setSsoRequired, upsertSsoConnection, verifiedDomainCount } from "@/db/queries/sso-settings";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import type { requireSsoInput, saveSsoConnectionInput, ssoConnectionInput } from "./input";
import { discoverIssuer } from "./issuer-check";

/**
 * The connection's changes as the action wrapper runs them (docs/features/sso.md#the-connection):
 * each in its transaction, each with its entry in the activity history, which names the issuer,
 * the client ID and the role, never the secret.
 */

export interface SsoConnectionSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  defaultRole: SsoRole;
}

/** The secret's last four characters, to tell which one is set. */
const hintOf = (secret: string) => `…${secret.slice(-4)}`;

const recorded = (connection: { issuer: string; clientId: string; defaultRole: string }): ActivityValues => ({
  issuer: connection.issuer,
  clientId: connection.clientId,
  defaultRole: connection.defaultRole,
});

/** Stores the organization's connection, its client secret sealed; one saved before keeps its id. */
export async function storeSsoConnection(tx: DbOrTx, orgId: string, settings: SsoConnectionSettings, createdBy: string | null): Promise<{ id: string }> {
  return upsertSsoConnection(tx, orgId, {
    id: newId("sso"),
    issuer: settings.issuer,
    clientId: settings.clientId,
    sealedClientSecret: ssoCredentials.seal(settings.clientSecret),
    secretHint: hintOf(settings.clientSecret),
    defaultRole: settings.defaultRole,
    createdBy,
  });
}

/**
 * Saves the provider's settings once its issuer answers as one. The discovery runs first, before
 * any lock is taken, so a slow provider holds up no other change of the organization; the issuer
 * stored is the one its document gives, which its ID tokens will carry.
 */
export async function saveConnection(
  { issuer, clientId, clientSecret, defaultRole }: z.output<typeof saveSsoConnectionInput>,
  ctx: ActionContext,
): Promise<Change<{ id: string; issuer: string }>> {
  const discovered = await discoverIssuer(issuer, clientId, clientSecret);
  const before = await lockSsoConnection(ctx.tx, ctx.orgId);
  const settings = { issuer: discovered, clientId, clientSecret, defaultRole };
  const { id } = await storeSsoConnection(ctx.tx, ctx.orgId, settings, ctx.userId);
  return {
    data: { id, issuer: discovered },
    activity: {
      action: "sso_connection.saved",
      target: { type: "sso_connection", id, name: discovered },
      before: before ? recorded(before) : null,
      after: recorded(settings),
    },
  };
}

export async function removeConnection(_input: z.output<typeof ssoConnectionInput>, ctx: ActionContext): Promise<Change<{ id: string }>> {
  const removed = await deleteSsoConnection(ctx.tx, ctx.orgId);
  if (!removed) throw new UserFacingError("This organization has no single sign-on provider to remove.");
  return {
    data: { id: removed.id },
    activity: { action: "sso_connection.removed", target: { type: "sso_connection", id: removed.id, name: removed.issuer }, before: recorded(removed) },
  };
}

/**
 * "Require SSO" (docs/features/sso.md#requiring-it): from the next request, members and admins
 * reach the organization only from a session its provider made; owners keep their password. It
 * needs a provider and a verified domain, or no one but the owners could get in.
 */
export async function changeSsoRequirement({ required }: z.output<typeof requireSsoInput>, ctx: ActionContext): Promise<Change<{ required: boolean }>> {
  const before = await lockSsoConnection(ctx.tx, ctx.orgId);
  if (!before) throw new UserFacingError("Set up the identity provider first.");
  if (before.requireSso === required) throw new UserFacingError(required ? "Single sign-on is already required." : "Single sign-on is already not required.");
  if (required && (await verifiedDomainCount(ctx.tx, ctx.orgId)) === 0)
    throw new UserFacingError("Verify an email domain first: without one, no one can sign in through the provider.");
  await setSsoRequired(ctx.tx, ctx.orgId, required);
  return {
    data: { required },
    activity: {
      action: "sso_connection.requirement_changed",
      target: { type: "sso_connection", id: before.id, name: before.issuer },
      before: { required: before.requireSso },
      after: { required },
    },
  };
}
