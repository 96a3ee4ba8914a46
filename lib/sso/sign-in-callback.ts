import "server-only";
import { timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import { getDb } from "@/db";
import { claimSsoFlow, connectionOf, deleteSsoFlow, leaveSsoTicket, ssoSubjectOf, type ClaimedSsoFlow } from "@/db/queries/sso-sign-in";
import { markAuthenticated } from "@/db/queries/sessions";
import type { Client } from "@/lib/auth/client";
import { mintSsoTicket } from "@/lib/auth/sso-ticket";
import { providerClient } from "./provider-client";
import { CONFIRM_MAX_AGE_SECONDS } from "./sign-in-start";
import { personForIdentity, type ProviderIdentity } from "./person";
import { SsoRefusal } from "./refusal";

/**
 * The second half (docs/features/sso.md#signing-in): the provider sent the browser back with a
 * code. Everything is checked before anything is made: the state against the browser's cookie and
 * a flow not yet used, then openid-client's exchange of the code with the PKCE verifier, the
 * state, the nonce, and the ID token's signature, issuer, audience and times.
 */

export type FinishedFlow = { purpose: "sign_in"; ticket: string; returnTo: string } | { purpose: "confirm"; returnTo: string };

function sameState(cookie: string | undefined, returned: string | null): boolean {
  if (!cookie || !returned) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(returned);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The code exchanged and the ID token checked: who the provider says signed in. */
async function identityFrom(flow: ClaimedSsoFlow, callback: URL, redirectUri: string): Promise<ProviderIdentity> {
  const connection = await connectionOf(getDb(), flow.orgId);
  if (!connection) throw new SsoRefusal("provider", "This organization no longer signs in with single sign-on.");
  try {
    const config = await providerClient(connection);
    // openid-client takes the redirect URI from the URL it is given: the one the provider was told, whichever address this request reached.
    const current = new URL(redirectUri);
    current.search = callback.search;
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      ...(flow.purpose === "confirm" ? { maxAge: CONFIRM_MAX_AGE_SECONDS } : {}),
    });
    const claims = tokens.claims();
    if (!claims) throw new Error("The provider's answer had no ID token.");
    // Some providers keep the email out of the ID token and give it at the userinfo endpoint.
    const profile = typeof claims.email === "string" ? claims : await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    return {
      orgId: connection.orgId,
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof profile.email === "string" ? profile.email.toLowerCase() : null,
      emailVerified: profile.email_verified !== false,
      name: typeof profile.name === "string" ? profile.name : null,
      defaultRole: connection.defaultRole,
    };
  } catch (error) {
    if (error instanceof SsoRefusal) throw error;
    throw new SsoRefusal("provider", "The identity provider's answer could not be verified. Start again.", { cause: error });
  }
}

/** Finishes the flow the callback URL answers, or throws an SsoRefusal; a refused flow is gone, and nothing else was made. */
export async function finishSsoFlow(input: { cookieState: string | undefined; callback: URL; redirectUri: string; client: Client }): Promise<FinishedFlow> {
  const returned = input.callback.searchParams.get("state");
  // Checked before the flow is claimed: a link with someone else's state cannot use up their flow.
  if (!sameState(input.cookieState, returned)) throw new SsoRefusal("state", "This sign-in was not started in this browser. Start again.");
  const flow = await claimSsoFlow(returned!);
  if (!flow) throw new SsoRefusal("expired", "This sign-in link was already used or has expired. Start again.");
  try {
    const providerError = input.callback.searchParams.get("error");
    if (providerError)
      throw new SsoRefusal("provider", `The identity provider did not sign you in (${providerError.slice(0, 80)}).`, {
        cause: new Error(input.callback.searchParams.get("error_description")?.slice(0, 500) ?? providerError),
      });
    const identity = await identityFrom(flow, input.callback, input.redirectUri);
    if (flow.purpose === "confirm") {
      const known = await ssoSubjectOf(getDb(), flow.orgId, flow.userId!);
      if (!known || known.issuer !== identity.issuer || known.subject !== identity.subject)
        throw new SsoRefusal("identity", "The identity provider signed in someone else. Confirm as yourself.");
      await markAuthenticated(flow.sessionId!, flow.userId!);
      await deleteSsoFlow(flow.state);
      return { purpose: "confirm", returnTo: flow.returnTo };
    }
    const userId = await personForIdentity(identity, input.client);
    const { ticket, hash } = mintSsoTicket();
    await leaveSsoTicket(flow.state, hash, userId);
    return { purpose: "sign_in", ticket, returnTo: flow.returnTo };
  } catch (error) {
    await deleteSsoFlow(flow.state);
    throw error;
  }
}
