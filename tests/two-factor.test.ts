import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import { NextRequest, type NextFetchEvent } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { activityLog, memberships, recoveryCodes, sessions, totpFactors, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { MAX_SECOND_FACTOR_FAILURES_PER_USER, TooManySecondFactorAttempts, checkSecondFactor } from "@/lib/auth/second-factor";
import { TOTP_PERIOD_SECONDS } from "@/lib/auth/totp";
import { addMember, createOrg, form } from "./helpers/factories";
import { Browser } from "./helpers/next-request";

// Two-factor sign-in through the real chain: the sign-in action sets next-auth's cookie, which names a row
// of `sessions`; lib/session.ts reads it on every request, as the pages, actions and routes do.
vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);
vi.unmock("@/lib/session");

const { signInAction, secondFactorSignInAction } = await import("@/app/(auth)/actions");
const { beginTotpSetupAction, confirmTotpSetupAction, removeTotpAction, renewRecoveryCodesAction } = await import("@/app/settings/security/actions");
const { createApiKeyAction } = await import("@/app/[orgSlug]/settings/api/actions");
const { currentSession, sessionAwaitingSecondFactor } = await import("@/lib/session");
const { orgAccess } = await import("@/lib/org-access");
const { proxy } = await import("@/proxy");

const PASSWORD = "the-right-password";
const redirectedTo = (path: string | RegExp) => ({
  digest: expect.stringMatching(new RegExp(`^NEXT_REDIRECT;[a-z]+;${typeof path === "string" ? path.replace(/[?]/g, "\\?") : path.source};`)),
});

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

/** A person with a password, a member of an organization. */
async function person() {
  const org = await createOrg("pro");
  const user = await addMember(org.id, "admin", "Tess Twofactor");
  await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return { org, user };
}

async function signIn(browser: Browser, email: string, callbackUrl = "/") {
  let digest = "";
  await browser
    .request(() => signInAction(null, form({ email, password: PASSWORD, callbackUrl })))
    .catch((error: { digest?: string }) => (digest = error.digest ?? String(error)));
  return digest;
}

/** A 6-digit code that is surely not `code`. */
const otherThan = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

/** The code an authenticator app shows for `secret`, `steps` periods from now. */
const codeFor = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_SECONDS });

/** Sets up TOTP for a signed-in browser through the security page's actions: the secret and the recovery codes. */
async function setUpTotp(browser: Browser) {
  const begun = await browser.request(() => beginTotpSetupAction(null, {}));
  if (!begun.ok) throw new Error(begun.error);
  const confirmed = await browser.request(async () => confirmTotpSetupAction(null, form({ code: await codeFor(begun.data.secret) })));
  if (!confirmed.ok) throw new Error(confirmed.error);
  if (!confirmed.data.recoveryCodes) throw new Error("A first factor brings recovery codes");
  return { secret: begun.data.secret, recoveryCodes: confirmed.data.recoveryCodes };
}

/** A person with TOTP set up, and a fresh browser of theirs that has given only the password. */
async function passwordOnly() {
  const { org, user } = await person();
  const setupBrowser = new Browser(freshIp());
  expect(await signIn(setupBrowser, user.email)).toMatch(/^NEXT_REDIRECT;[a-z]+;\/;/);
  const { secret, recoveryCodes: codes } = await setUpTotp(setupBrowser);
  const browser = new Browser(freshIp());
  const digest = await signIn(browser, user.email, "/acme/settings/api");
  return { org, user, secret, codes, browser, digest };
}

describe("setting up an authenticator app", () => {
  it("shows a QR code and the setup key, turns on only with a right first code, and gives ten recovery codes", async () => {
    const { org, user } = await person();
    const browser = new Browser(freshIp());
    await signIn(browser, user.email);

    const begun = await browser.request(() => beginTotpSetupAction(null, {}));
    expect(begun.ok).toBe(true);
    if (!begun.ok) return;
    expect(begun.data.secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(begun.data.qrCodeSvg).toContain("<svg");

    // The secret is stored sealed, never as it is.
    const [row] = await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row!.sealedSecret).not.toContain(begun.data.secret);
    expect(row!.confirmedAt).toBeNull();

    const wrong = await browser.request(async () => confirmTotpSetupAction(null, form({ code: otherThan(await codeFor(begun.data.secret)) })));
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { code: [expect.stringContaining("does not match")] } });
    const bad = await browser.request(() => confirmTotpSetupAction(null, form({ code: "12ab" })));
    expect(bad).toMatchObject({ ok: false, fieldErrors: { code: [expect.any(String)] } });
    expect((await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.id)))[0]!.confirmedAt).toBeNull();

    const confirmed = await browser.request(async () => confirmTotpSetupAction(null, form({ code: await codeFor(begun.data.secret) })));
    expect(confirmed.ok).toBe(true);
    if (!confirmed.ok) return;
    expect(confirmed.data.recoveryCodes).toHaveLength(10);
    const stored = await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of confirmed.data.recoveryCodes ?? []) expect(stored.map((r) => r.codeHash)).not.toContain(code);

    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, org.id), eq(activityLog.action, "two_factor.totp_added")));
    expect(entries).toMatchObject([{ actorUserId: user.id, targetType: "member", targetId: user.id, targetName: "Tess Twofactor" }]);

    // A second setup while one is on is refused, and the one that is on stays.
    expect(await browser.request(() => beginTotpSetupAction(null, {}))).toMatchObject({ ok: false, error: expect.stringContaining("already set up") });
  });
});

describe("signing in with two factors", () => {
  it("sends a person with a second factor from the password to the second step, whose session reaches nothing else", async () => {
    const { org, user, browser, digest } = await passwordOnly();
    expect(digest).toMatch(/^NEXT_REDIRECT;[a-z]+;\/signin\/two-factor\?callbackUrl=%2Facme%2Fsettings%2Fapi;/);
    expect(await browser.request(() => currentSession())).toBeNull();
    expect(await browser.request(() => sessionAwaitingSecondFactor())).toMatchObject({ userId: user.id });
    const [row] = await getDb().select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(sessions.createdAt);
    expect(row).toBeDefined();

    // Pages and routes (orgAccess), organization actions, and account actions all see no one.
    const slug = (await getDb().query.organizations.findFirst({ where: (o, { eq: is }) => is(o.id, org.id) }))!.slug;
    expect(await browser.request(() => orgAccess(slug))).toMatchObject({ ok: false, status: 401 });
    expect(await browser.request(() => createApiKeyAction(null, form({ orgId: org.id, name: "Sneaky" })))).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
    expect(await browser.request(() => renewRecoveryCodesAction(null, {}))).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    expect(await browser.request(() => beginTotpSetupAction(null, {}))).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
  });

  it("completes the sign-in with the app's code, and refuses that code a second time in its window", async () => {
    const { user, secret, browser } = await passwordOnly();
    // The code of the next step: the setup used this step's.
    const code = await codeFor(secret, 1);
    const wrong = await browser.request(() => secondFactorSignInAction(null, form({ method: "totp", code: otherThan(code), callbackUrl: "/x" })));
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { code: [expect.stringContaining("does not match")] } });

    await expect(
      browser.request(() => secondFactorSignInAction(null, form({ method: "totp", code, callbackUrl: "/acme/settings/api" }))),
    ).rejects.toMatchObject(redirectedTo("/acme/settings/api"));
    expect(await browser.request(() => currentSession())).toMatchObject({ userId: user.id });

    // Another browser that has the password and saw the code: the code is spent.
    const thief = new Browser(freshIp());
    await signIn(thief, user.email);
    expect(await thief.request(() => secondFactorSignInAction(null, form({ method: "totp", code, callbackUrl: "/" })))).toMatchObject({
      ok: false,
      fieldErrors: { code: [expect.any(String)] },
    });
    expect(await thief.request(() => currentSession())).toBeNull();
  });

  it("gives the browser a new session when the second factor passes: a copy of the cookie taken at the password step reaches nothing", async () => {
    const { org, user, secret, browser } = await passwordOnly();
    const pending = await browser.request(() => sessionAwaitingSecondFactor());
    const copy = new Browser(freshIp());
    for (const [name, value] of browser.cookies) copy.cookies.set(name, value);

    const code = await codeFor(secret, 1);
    await expect(
      browser.request(() => secondFactorSignInAction(null, form({ method: "totp", code, callbackUrl: "/acme/settings/api" }))),
    ).rejects.toMatchObject(redirectedTo("/acme/settings/api"));
    const renewed = await browser.request(() => currentSession());
    expect(renewed).toMatchObject({ userId: user.id });
    expect(renewed!.sessionId).not.toBe(pending!.sessionId);
    expect(await getDb().select().from(sessions).where(eq(sessions.id, pending!.sessionId))).toEqual([]);

    // The copy is signed out at every stage, and its cookie makes nothing.
    expect(await copy.request(() => currentSession())).toBeNull();
    expect(await copy.request(() => sessionAwaitingSecondFactor())).toBeNull();
    const createKey = (from: Browser) => from.request(() => createApiKeyAction(null, form({ orgId: org.id, name: "Copied cookie's key", expiresIn: "never" })));
    expect(await createKey(copy)).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    const nextCode = await codeFor(secret, 2);
    expect(await copy.request(() => secondFactorSignInAction(null, form({ method: "totp", code: nextCode, callbackUrl: "/" })))).toMatchObject({ ok: false });
    expect(await copy.request(() => currentSession())).toBeNull();
    expect(await createKey(browser)).toMatchObject({ ok: true });
  });

  it("never sends the password step's cookie back, so a request answered after the second step cannot put the old session id back", async () => {
    const { user, secret, browser } = await passwordOnly();
    // Through proxy.ts, as every dashboard request goes: a page's prefetch, or the second step itself.
    const sessionCookiesSetFor = async (from: Browser) => {
      const response = await proxy(new NextRequest("http://localhost:3000/signin/two-factor", { headers: from.headers() }), {} as NextFetchEvent);
      return response.headers.getSetCookie().filter((cookie) => cookie.startsWith("authjs.session-token="));
    };
    const leftBefore = new Browser(freshIp());
    for (const [name, value] of browser.cookies) leftBefore.cookies.set(name, value);
    expect(await sessionCookiesSetFor(leftBefore)).toEqual([]);

    const code = await codeFor(secret, 1);
    await expect(browser.request(() => secondFactorSignInAction(null, form({ method: "totp", code, callbackUrl: "/" })))).rejects.toMatchObject(
      redirectedTo("/"),
    );
    // Answered now, the request that left with the old cookie leaves the browser's new one alone.
    expect(await sessionCookiesSetFor(leftBefore)).toEqual([]);
    expect(await browser.request(() => currentSession())).toMatchObject({ userId: user.id });
    // A whole session's cookie is sent back with its later expiry, as before.
    expect(await sessionCookiesSetFor(browser)).toHaveLength(1);
  });

  it("takes each recovery code once", async () => {
    const { user, codes, browser } = await passwordOnly();
    const [first, second] = codes as [string, string];
    await expect(
      browser.request(() => secondFactorSignInAction(null, form({ method: "recovery", code: first.toUpperCase(), callbackUrl: "/" }))),
    ).rejects.toMatchObject(redirectedTo("/"));
    expect(await browser.request(() => currentSession())).toMatchObject({ userId: user.id });

    const again = new Browser(freshIp());
    await signIn(again, user.email);
    expect(await again.request(() => secondFactorSignInAction(null, form({ method: "recovery", code: first, callbackUrl: "/" })))).toMatchObject({
      ok: false,
      fieldErrors: { code: [expect.stringContaining("used already")] },
    });
    await expect(again.request(() => secondFactorSignInAction(null, form({ method: "recovery", code: second, callbackUrl: "/" })))).rejects.toMatchObject(
      redirectedTo("/"),
    );
    const left = await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(left.filter((code) => code.usedAt === null)).toHaveLength(8);
  });

  it(`checks at most ${MAX_SECOND_FACTOR_FAILURES_PER_USER} of 10 wrong codes sent at once, then refuses even the right one`, async () => {
    const { user, secret } = await passwordOnly();
    const right = await codeFor(secret, 1);
    const wrongCodes = Array.from({ length: 10 }, (_, i) => String((Number(right) + 1 + i * 7919) % 1_000_000).padStart(6, "0"));
    // None of them may happen to be the code of a step in the window either.
    const window = await Promise.all([-1, 0, 1].map((steps) => codeFor(secret, steps)));
    expect(wrongCodes.filter((code) => window.includes(code))).toEqual([]);
    const outcomes = await Promise.all(
      wrongCodes.map((code, i) =>
        checkSecondFactor({ userId: user.id, sessionId: "ses_none" }, { method: "totp", code }, `203.0.113.${100 + i}`).then(
          (passed) => (passed ? "passed" : "checked and failed"),
          (error: unknown) => (error instanceof TooManySecondFactorAttempts ? "throttled" : Promise.reject(error)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "passed")).toHaveLength(0);
    expect(outcomes.filter((o) => o === "checked and failed")).toHaveLength(MAX_SECOND_FACTOR_FAILURES_PER_USER);
    expect(outcomes.filter((o) => o === "throttled")).toHaveLength(10 - MAX_SECOND_FACTOR_FAILURES_PER_USER);
    await expect(checkSecondFactor({ userId: user.id, sessionId: "ses_none" }, { method: "totp", code: right }, "203.0.113.200")).rejects.toBeInstanceOf(
      TooManySecondFactorAttempts,
    );
  });
});

describe("changing two-factor", () => {
  it("turns it off only with a second factor, and records it", async () => {
    const { org, user, secret, codes, browser } = await passwordOnly();
    await expect(
      browser.request(async () => secondFactorSignInAction(null, form({ method: "totp", code: await codeFor(secret, 1), callbackUrl: "/" }))),
    ).rejects.toMatchObject(redirectedTo("/"));

    expect(await browser.request(async () => removeTotpAction(null, form({ method: "totp", code: otherThan(await codeFor(secret)) })))).toMatchObject({
      ok: false,
      fieldErrors: { code: [expect.any(String)] },
    });
    // The code of the step before the one just used is spent too.
    expect(await browser.request(async () => removeTotpAction(null, form({ method: "totp", code: await codeFor(secret) })))).toMatchObject({
      ok: false,
      fieldErrors: { code: [expect.any(String)] },
    });
    expect(await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.id))).toHaveLength(1);

    expect(await browser.request(() => removeTotpAction(null, form({ method: "recovery", code: codes[3]! })))).toEqual({ ok: true, data: { removed: true } });
    expect(await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.id))).toEqual([]);
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    const actions = (await getDb().select().from(activityLog).where(eq(activityLog.orgId, org.id))).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["two_factor.totp_added", "two_factor.totp_removed"]));

    // Without a factor the next sign-in is one step again.
    expect(await signIn(new Browser(freshIp()), user.email, "/next")).toMatch(/^NEXT_REDIRECT;[a-z]+;\/next;/);
  });

  it("renews the recovery codes: the old ones stop working, and it is recorded", async () => {
    const { org, user, secret, codes, browser } = await passwordOnly();
    await expect(
      browser.request(async () => secondFactorSignInAction(null, form({ method: "totp", code: await codeFor(secret, 1), callbackUrl: "/" }))),
    ).rejects.toMatchObject(redirectedTo("/"));
    const renewed = await browser.request(() => renewRecoveryCodesAction(null, {}));
    expect(renewed.ok).toBe(true);
    if (!renewed.ok) return;
    expect(renewed.data.recoveryCodes).toHaveLength(10);
    expect(renewed.data.recoveryCodes).not.toContain(codes[0]);
    expect(await checkSecondFactor({ userId: user.id, sessionId: "ses_none" }, { method: "recovery", code: codes[0]! }, freshIp())).toBe(false);
    expect(await checkSecondFactor({ userId: user.id, sessionId: "ses_none" }, { method: "recovery", code: renewed.data.recoveryCodes[0]! }, freshIp())).toBe(
      true,
    );
    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, org.id), eq(activityLog.action, "two_factor.recovery_codes_renewed")));
    expect(entries).toHaveLength(1);
  });

  it("records a change in every organization of the person, and in no other", async () => {
    const { org, user } = await person();
    const second = await createOrg("pro");
    const unrelated = await createOrg("pro");
    await addMember(second.id, "member", "Someone");
    await getDb().insert(memberships).values({ orgId: second.id, userId: user.id, role: "member" });
    const browser = new Browser(freshIp());
    await signIn(browser, user.email);
    await setUpTotp(browser);
    const added = async (orgId: string) =>
      (
        await getDb()
          .select()
          .from(activityLog)
          .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, "two_factor.totp_added")))
      ).length;
    expect([await added(org.id), await added(second.id), await added(unrelated.id)]).toEqual([1, 1, 0]);
  });

  it("refuses every account action to a signed-out visitor", async () => {
    const visitor = new Browser(freshIp());
    const refused = { ok: false, error: "Your session has ended. Sign in again." };
    expect(await visitor.request(() => beginTotpSetupAction(null, {}))).toEqual(refused);
    expect(await visitor.request(() => confirmTotpSetupAction(null, form({ code: "123456" })))).toEqual(refused);
    expect(await visitor.request(() => removeTotpAction(null, form({ method: "totp", code: "123456" })))).toEqual(refused);
    expect(await visitor.request(() => renewRecoveryCodesAction(null, {}))).toEqual(refused);
    expect(await visitor.request(() => secondFactorSignInAction(null, form({ method: "totp", code: "123456" })))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Sign in again"),
    });
  });
});
