import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { activityLog, memberships, ssoFlows, ssoIdentities, users } from "@/db/schema";
import { createSession } from "@/db/queries/sessions";
import { identityProofMethods } from "@/db/queries/two-factor";
import { checkPassword } from "@/lib/auth/credentials";
import { redeemSsoSignIn } from "@/lib/auth/sso-ticket";
import { SsoRefusal } from "@/lib/sso/refusal";
import { startSsoConfirmation, startSsoSignIn } from "@/lib/sso/sign-in-start";
import { createTeam, createUser } from "./helpers/factories";
import { startOidcProvider, type LocalOidcProvider } from "./helpers/oidc-provider";
import { BASE_URL, CLIENT, accountsState, finish, flowExists, freshDomain, personByEmail, setUpSso } from "./helpers/sso-sign-in";

// Signing in through an organization's identity provider (docs/features/sso.md#signing-in), against a
// real OpenID provider on 127.0.0.1 whose login and consent forms the helper fills in as a browser
// would. Every attack is refused with nothing made: no person, membership, identity or session.

type Team = Awaited<ReturnType<typeof createTeam>>;
let provider: LocalOidcProvider;
let team: Team;
let domain: string;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  provider = await startOidcProvider();
});
afterAll(() => provider.stop());
beforeEach(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  delete process.env.SSO_STARTS_PER_ADDRESS;
  provider.publishForeignKeys(false);
  team = await createTeam("enterprise");
  domain = freshDomain();
  await setUpSso(team.org.id, provider, domain);
});

let subjects = 0;
/** A person the provider knows, with an address at `at`. */
function person(at = domain, claims: { email_verified?: boolean; name?: string } = {}) {
  const sub = `person-${++subjects}-${team.org.id.slice(-6).toLowerCase()}`;
  const email = `${sub}@${at}`;
  provider.setAccount(sub, { email, email_verified: true, name: `Person ${subjects}`, ...claims });
  return { sub, email };
}

/** A sign-in from the start to the provider's redirect back: the callback URL and the browser's cookie. */
async function signInAtProvider(sub: string, email: string, alter?: (url: URL) => void) {
  const flow = await startSsoSignIn(email, "/after", BASE_URL, CLIENT);
  const url = new URL(flow.authorizationUrl);
  alter?.(url);
  return { callback: await provider.signInAt(url, sub), state: flow.state };
}

async function refusedWith(reason: SsoRefusal["reason"], promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoRefusal);
  expect((error as SsoRefusal).reason).toBe(reason);
  return error as SsoRefusal;
}

describe("signing in through the provider", () => {
  it("makes a person met for the first time a member with the connection's role, with no password, and the ticket works once", async () => {
    const { sub, email } = person();
    const { callback, state } = await signInAtProvider(sub, email);
    expect(callback.searchParams.get("code")).toBeTruthy();
    const finished = await finish(callback, state);
    expect(finished).toMatchObject({ purpose: "sign_in", returnTo: "/after" });
    const joined = await personByEmail(email);
    expect(joined).toMatchObject({ hasPassword: false });
    const [membership] = await getDb()
      .select()
      .from(memberships)
      .where(and(eq(memberships.orgId, team.org.id), eq(memberships.userId, joined!.id)));
    expect(membership!.role).toBe("member");
    const [identity] = await getDb().select().from(ssoIdentities).where(eq(ssoIdentities.userId, joined!.id));
    expect(identity).toMatchObject({ orgId: team.org.id, issuer: provider.issuer, subject: sub });
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "member.joined"), eq(activityLog.targetId, joined!.id)));
    expect(entry!.after).toMatchObject({ email, role: "member", via: "single sign-on" });

    if (finished.purpose !== "sign_in") throw new Error("a sign-in");
    expect(await redeemSsoSignIn(finished.ticket)).toEqual({ userId: joined!.id, orgId: team.org.id });
    expect(await redeemSsoSignIn(finished.ticket)).toBeNull();
    // No password to guess: the password check refuses it as it refuses an unknown email, and sudo mode does not offer it.
    expect(await checkPassword(email, "")).toBeNull();
    expect(await identityProofMethods(joined!.id)).toEqual({ totp: false, passkey: false, password: false });
    expect((await identityProofMethods(team.owner.id)).password).toBe(true);
  });

  it("links a person who already has an account by their email, and finds them by their subject from then on", async () => {
    const existing = await createUser("Has a password");
    const { sub } = person();
    const email = existing.email.replace(/@.*/, `@${domain}`);
    await getDb().update(users).set({ email }).where(eq(users.id, existing.id));
    provider.setAccount(sub, { email, email_verified: true });
    for (let round = 0; round < 2; round++) {
      const { callback, state } = await signInAtProvider(sub, email);
      const finished = await finish(callback, state);
      if (finished.purpose !== "sign_in") throw new Error("a sign-in");
      expect((await redeemSsoSignIn(finished.ticket))?.userId).toBe(existing.id);
    }
    expect(await personByEmail(email)).toMatchObject({ id: existing.id, hasPassword: true });
    const joined = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "member.joined"), eq(activityLog.targetId, existing.id)));
    expect(joined).toHaveLength(1);
  });
});

describe("attacks, each refused with nothing made", () => {
  it("a state that is not this browser's: refused before the flow is touched", async () => {
    const { sub, email } = person();
    const { callback, state } = await signInAtProvider(sub, email);
    const before = await accountsState();
    await refusedWith("state", finish(callback, undefined));
    await refusedWith("state", finish(callback, `${state.slice(0, -1)}x`));
    expect(await flowExists(state)).toBe(true);
    expect(await accountsState()).toEqual(before);
  });

  it("a replayed code: the second callback finds its flow used", async () => {
    const { sub, email } = person();
    const { callback, state } = await signInAtProvider(sub, email);
    await finish(callback, state);
    const before = await accountsState();
    await refusedWith("expired", finish(callback, state));
    expect(await accountsState()).toEqual(before);
  });

  it("a wrong nonce in the ID token", async () => {
    const { sub, email } = person();
    const before = await accountsState();
    const { callback, state } = await signInAtProvider(sub, email, (url) => url.searchParams.set("nonce", "a-nonce-of-another-flow"));
    await refusedWith("provider", finish(callback, state));
    expect(await flowExists(state)).toBe(false);
    expect(await accountsState()).toEqual(before);
  });

  it("an ID token signed by a key the provider does not publish", async () => {
    const { sub, email } = person();
    const before = await accountsState();
    const { callback, state } = await signInAtProvider(sub, email);
    provider.publishForeignKeys(true);
    const refusal = await refusedWith("provider", finish(callback, state));
    const causes = [];
    for (let at: unknown = refusal.cause; at instanceof Error; at = at.cause) causes.push(at.message);
    expect(causes.join(" ← ")).toMatch(/JWT signature verification failed/);
    expect(await accountsState()).toEqual(before);
  });

  it("a code issued to another client of the provider", async () => {
    const { sub, email } = person();
    const before = await accountsState();
    const { callback, state } = await signInAtProvider(sub, email, (url) => url.searchParams.set("client_id", provider.otherClient.clientId));
    await refusedWith("provider", finish(callback, state));
    expect(await accountsState()).toEqual(before);
  });

  it("an email of a domain the organization has not verified, typed or given by the provider", async () => {
    const pending = freshDomain("pending");
    await expect(startSsoSignIn(`someone@${pending}`, "/", BASE_URL, CLIENT)).rejects.toThrow("Check the highlighted fields.");
    const before = await accountsState();
    const { sub } = person(pending);
    const typed = `typed@${domain}`;
    const { callback, state } = await signInAtProvider(sub, typed);
    await refusedWith("identity", finish(callback, state));
    expect(await accountsState()).toEqual(before);
  });

  it("an email the provider has not verified", async () => {
    const { sub, email } = person(domain, { email_verified: false });
    const before = await accountsState();
    const { callback, state } = await signInAtProvider(sub, email);
    await refusedWith("identity", finish(callback, state));
    expect(await accountsState()).toEqual(before);
  });

  it("one organization's provider used to enter another's people", async () => {
    // Another organization, with its own domain, on a provider that will say anything it is told.
    const other = await createTeam("enterprise");
    const otherDomain = freshDomain("other");
    await setUpSso(other.org.id, provider, otherDomain, provider.otherClient);
    // This organization's person already has an account.
    const victim = person();
    const first = await signInAtProvider(victim.sub, victim.email);
    await finish(first.callback, first.state);
    const before = await accountsState();
    // The other organization's provider claims the victim's email: the flow is the other organization's, the domain is not.
    const attacker = `attacker-${other.org.id.slice(-6)}`;
    provider.setAccount(attacker, { email: victim.email, email_verified: true });
    const { callback, state } = await signInAtProvider(attacker, `anyone@${otherDomain}`);
    await refusedWith("identity", finish(callback, state));
    expect(await accountsState()).toEqual(before);
  });
});

describe("starting a sign-in", () => {
  it("is bounded per address, whatever the domain, and a refusal writes no flow", async () => {
    process.env.SSO_STARTS_PER_ADDRESS = "3";
    const address = { ip: `198.51.100.${subjects % 250}` };
    const { email } = person();
    await startSsoSignIn(email, "/", BASE_URL, address);
    await expect(startSsoSignIn(`someone@${freshDomain("unknown")}`, "/", BASE_URL, address)).rejects.toThrow("Check the highlighted fields.");
    await startSsoSignIn(email, "/", BASE_URL, address);
    const flows = async () => (await getDb().select({ n: count() }).from(ssoFlows))[0]!.n;
    const before = await flows();
    await expect(startSsoSignIn(email, "/", BASE_URL, address)).rejects.toThrow("Too many single sign-on attempts from your network");
    expect(await flows()).toBe(before);
    // Another address is counted apart.
    await startSsoSignIn(email, "/", BASE_URL, { ip: "198.51.100.251" });
  });
});

describe("sudo mode through the provider", () => {
  async function ssoSession() {
    const { sub, email } = person();
    const { callback, state } = await signInAtProvider(sub, email);
    const finished = await finish(callback, state);
    if (finished.purpose !== "sign_in") throw new Error("a sign-in");
    const { userId, orgId } = (await redeemSsoSignIn(finished.ticket))!;
    const sessionId = await createSession(userId, CLIENT, { secondFactorPending: false, ssoOrgId: orgId });
    return { sub, email, session: { userId, sessionId, authenticatedAt: new Date(0), ssoOrgId: orgId } };
  }

  it("asks the provider to sign the same person in again, and starts sudo mode's clock", async () => {
    const { sub, session } = await ssoSession();
    const flow = await startSsoConfirmation(session, "/settings/security", BASE_URL);
    const url = new URL(flow.authorizationUrl);
    expect(url.searchParams.get("prompt")).toBe("login");
    expect(url.searchParams.get("max_age")).toBe("0");
    const finished = await finish(await provider.signInAt(url, sub), flow.state);
    expect(finished).toEqual({ purpose: "confirm", returnTo: "/settings/security" });
  });

  it("refuses another person signing in at the provider", async () => {
    const { session } = await ssoSession();
    const someoneElse = person();
    const flow = await startSsoConfirmation(session, "/", BASE_URL);
    const finished = finish(await provider.signInAt(flow.authorizationUrl, someoneElse.sub), flow.state);
    await refusedWith("identity", finished);
  });

  it("is not offered to a session the provider did not make", async () => {
    await expect(
      startSsoConfirmation({ userId: team.owner.id, sessionId: "ses_x", authenticatedAt: new Date(), ssoOrgId: null }, "/", BASE_URL),
    ).rejects.toThrow(/not made through single sign-on/);
  });
});
