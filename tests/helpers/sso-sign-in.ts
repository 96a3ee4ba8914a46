import { count, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { memberships, sessions, ssoDomains, ssoFlows, ssoIdentities, users } from "@/db/schema";
import { newId } from "@/core/ids";
import { storeSsoConnection } from "@/lib/sso/connection-changes";
import { finishSsoFlow } from "@/lib/sso/sign-in-callback";
import { ssoRedirectUri } from "@/core/sso";
import type { LocalOidcProvider } from "./oidc-provider";

/** What the sign-in tests share (docs/features/sso.md#signing-in): the dashboard's address, an organization's provider set up, a flow finished. */

export const BASE_URL = "http://localhost:3000";
export const REDIRECT_URI = ssoRedirectUri(BASE_URL);
export const CLIENT = { ip: "203.0.113.20", userAgent: "vitest sso" };

let domains = 0;
/** A domain no other test uses: a verified domain belongs to one organization across the service. */
export const freshDomain = (label = "corp") => `${label}${++domains}-${newId("dom").slice(-8).toLowerCase()}.example`;

/** Gives the organization `provider` as its identity provider (client `clientId`), and `domain` verified. */
export async function setUpSso(
  orgId: string,
  provider: LocalOidcProvider,
  domain: string,
  client = { clientId: provider.clientId, clientSecret: provider.clientSecret },
) {
  await storeSsoConnection(getDb(), orgId, { issuer: provider.issuer, ...client, defaultRole: "member" }, null);
  await getDb()
    .insert(ssoDomains)
    .values({ id: newId("dom"), orgId, domain, verificationToken: "t".repeat(32), verifiedAt: new Date() });
}

/** The callback as the browser brings it back with the flow's cookie. */
export function finish(callback: URL, cookieState: string | undefined) {
  return finishSsoFlow({ cookieState, callback, redirectUri: REDIRECT_URI, client: CLIENT });
}

/** How many people, memberships, identities and sessions the database holds: what a refused sign-in must leave as it was. */
export async function accountsState(): Promise<Record<string, number>> {
  const db = getDb();
  const [[u], [m], [i], [s]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(memberships),
    db.select({ n: count() }).from(ssoIdentities),
    db.select({ n: count() }).from(sessions),
  ]);
  return { users: u!.n, memberships: m!.n, identities: i!.n, sessions: s!.n };
}

/** Whether the flow of `state` is still on record. */
export async function flowExists(state: string): Promise<boolean> {
  const [row] = await getDb().select({ state: ssoFlows.state }).from(ssoFlows).where(eq(ssoFlows.state, state));
  return row !== undefined;
}

/** The person with this email, with their password hash's presence. */
export async function personByEmail(email: string) {
  const [row] = await getDb().select().from(users).where(eq(users.email, email));
  return row ? { id: row.id, name: row.name, hasPassword: row.passwordHash !== null } : null;
}
