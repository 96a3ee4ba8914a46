import "server-only";
import * as client from "openid-client";
import { ssoRedirectUri } from "@/core/sso";
import { connectionForVerifiedDomain, connectionOf, insertSsoFlow, ssoSubjectOf, type SignInConnection } from "@/db/queries/sso-sign-in";
import { getDb } from "@/db";
import { getUser } from "@/db/queries/users";
import { countAttempt } from "@/db/queries/auth-throttle";
import { wholeNumberFromEnv } from "@/core/env-number";
import type { Client } from "@/lib/auth/client";
import { UserFacingError } from "@/lib/errors";
import type { SignedInSession } from "@/lib/session";
import { normalizeDomain } from "./domain-name";
import { providerClient } from "./provider-client";

/**
 * The first half of signing in through an organization's provider (docs/features/sso.md#signing-in):
 * the browser is sent to the provider's authorization endpoint with a PKCE challenge, a `state`
 * (also set as a cookie, which the callback compares) and a `nonce` the ID token must carry.
 */

/** What asking the provider again for sudo mode accepts: a sign-in made within this many seconds (the request asks for a fresh one). */
export const CONFIRM_MAX_AGE_SECONDS = 120;

export interface StartedFlow {
  /** Where to send the browser. */
  authorizationUrl: string;
  /** The flow's key, for the browser's cookie (./state-cookie.ts). */
  state: string;
}

/** The domain of an email, as verified domains are kept (./domain-name.ts). */
export function emailDomain(email: string): string {
  return normalizeDomain(email.slice(email.lastIndexOf("@") + 1));
}

async function leaveFor(
  connection: SignInConnection,
  flow: { purpose: "sign_in" | "confirm"; returnTo: string; sessionId?: string; userId?: string },
  baseUrl: string,
  extra: Record<string, string>,
): Promise<StartedFlow> {
  let config: client.Configuration;
  try {
    config = await providerClient(connection);
  } catch (error) {
    throw new UserFacingError(`${connection.orgName}'s identity provider could not be reached. Try again, or ask an owner to check its settings.`, undefined, {
      cause: error,
    });
  }
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await insertSsoFlow({ state, orgId: connection.orgId, codeVerifier, nonce, ...flow });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: ssoRedirectUri(baseUrl),
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    ...extra,
  });
  return { authorizationUrl: url.href, state };
}

/**
 * How many sign-ins through a provider one address may start in SSO_STARTS_WINDOW_SECONDS: each
 * writes a flow and asks a provider, so a flood is bounded, while an office behind one address
 * signing in at nine o'clock stays well under it. `SSO_STARTS_PER_ADDRESS` overrides it.
 */
export function maxSsoStartsPerAddress(): number {
  return wholeNumberFromEnv("SSO_STARTS_PER_ADDRESS", 300, "sign-ins");
}
const SSO_STARTS_WINDOW_SECONDS = 15 * 60;

/** Signing in: the email's verified domain finds the organization and its provider. Counted per address first, whatever the domain. */
export async function startSsoSignIn(email: string, returnTo: string, baseUrl: string, client: Pick<Client, "ip">): Promise<StartedFlow> {
  const counted = await countAttempt([{ subject: `sso-start-ip:${client.ip}`, limit: maxSsoStartsPerAddress(), windowSeconds: SSO_STARTS_WINDOW_SECONDS }]);
  if ("refusedBy" in counted) throw new UserFacingError("Too many single sign-on attempts from your network. Try again in 15 minutes.");
  const domain = emailDomain(email);
  const connection = await connectionForVerifiedDomain(domain);
  if (!connection)
    throw new UserFacingError("Check the highlighted fields.", {
      email: [`No organization signs in with single sign-on at ${domain}. Sign in with your password, or ask your administrator.`],
    });
  return leaveFor(connection, { purpose: "sign_in", returnTo }, baseUrl, { login_hint: email });
}

/**
 * Sudo mode for a session the provider made (docs/security.md#sudo-mode): the provider is asked
 * to sign the person in again (`prompt=login`, `max_age=0`) as the same subject.
 */
export async function startSsoConfirmation(session: SignedInSession, returnTo: string, baseUrl: string): Promise<StartedFlow> {
  const connection = session.ssoOrgId ? await connectionOf(getDb(), session.ssoOrgId) : null;
  const subject = connection && (await ssoSubjectOf(getDb(), connection.orgId, session.userId));
  if (!connection || !subject) throw new UserFacingError("This session was not made through single sign-on: confirm with your password.");
  const person = await getUser(session.userId);
  return leaveFor(connection, { purpose: "confirm", returnTo, sessionId: session.sessionId, userId: session.userId }, baseUrl, {
    prompt: "login",
    max_age: "0",
    ...(person ? { login_hint: person.email } : {}),
  });
}
