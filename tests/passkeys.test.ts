import { and, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { activityLog, passkeys, recoveryCodes, sessions, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { MAX_SECOND_FACTOR_FAILURES_PER_USER } from "@/lib/auth/second-factor";
import { addMember, createOrg, form } from "./helpers/factories";
import { Browser } from "./helpers/next-request";
import { SoftwarePasskey } from "./helpers/software-passkey";

// Passkeys through the real chain: next-auth's cookie names a session row, which keeps
// each WebAuthn challenge; @simplewebauthn/server checks what a software authenticator answers,
// exactly as a browser's would (tests/helpers/software-passkey.ts).
vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);
vi.unmock("@/lib/session");

const { signInAction, secondFactorSignInAction, beginPasskeySignInAction } = await import("@/app/(auth)/actions");
const { addPasskeyAction, beginPasskeySetupAction, beginPasskeyProofAction, removePasskeyAction, confirmIdentityAction } =
  await import("@/app/settings/security/actions");
const { currentSession, sessionAwaitingSecondFactor } = await import("@/lib/session");

const PASSWORD = "the-right-password";
let ipCounter = 0;
const freshIp = () => `198.18.0.${++ipCounter}`;

async function signIn(browser: Browser, email: string) {
  await browser.request(() => signInAction(null, form({ email, password: PASSWORD, callbackUrl: "/" }))).catch(() => {});
}

/** A person signed in with a password in a browser of theirs, with a software authenticator and a new passkey's challenge. */
async function signedInWithDevice(name: string) {
  const org = await createOrg("pro");
  const user = await addMember(org.id, "admin", name);
  await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  const browser = new Browser(freshIp());
  await signIn(browser, user.email);
  const device = new SoftwarePasskey();
  const options = await browser.request(() => beginPasskeySetupAction(null, {}));
  if (!options.ok) throw new Error(options.error);
  return { org, user, browser, device, options };
}

/** A person signed in with a password, with a passkey on a software authenticator added through the Security page's actions. */
async function personWithPasskey() {
  const { org, user, browser, device, options } = await signedInWithDevice("Paula Passkey");
  const added = await browser.request(() => addPasskeyAction(null, form({ name: "Laptop", credential: device.create(options.data) })));
  if (!added.ok) throw new Error(added.error);
  return { org, user, browser, device, recoveryCodes: added.data.recoveryCodes };
}

/** A new browser of the person past the password, waiting for its second factor, with a passkey challenge. */
async function atSecondStep(email: string) {
  const browser = new Browser(freshIp());
  await signIn(browser, email);
  const options = await browser.request(() => beginPasskeySignInAction(null, {}));
  if (!options.ok || !options.data) throw new Error("no passkey challenge");
  return { browser, options: options.data };
}

const signInWith = (browser: Browser, credential: string) =>
  browser
    .request(() => secondFactorSignInAction(null, form({ method: "passkey", credential, callbackUrl: "/" })))
    .catch((error: { digest?: string }) => {
      if (error.digest?.startsWith("NEXT_REDIRECT;")) return { ok: true as const, data: undefined };
      throw error;
    });

describe("passkeys as a second factor", () => {
  it("adds a passkey from the Security page: its public key is kept, two-factor turns on with recovery codes, and the history says so", async () => {
    const { org, user, recoveryCodes: codes } = await personWithPasskey();
    expect(codes).toHaveLength(10);
    const [row] = await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row).toMatchObject({ name: "Laptop", transports: ["internal"] });
    expect(row!.publicKey.length).toBeGreaterThan(40);
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(10);
    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, org.id), eq(activityLog.action, "two_factor.passkey_added")));
    expect(entries).toMatchObject([{ actorUserId: user.id, targetId: user.id }]);
  });

  it("refuses a new passkey that answers another challenge or comes from another site, and keeps nothing", async () => {
    const { user, browser, device, options } = await signedInWithDevice("Nora Nokey");
    const phished = await browser.request(() =>
      addPasskeyAction(null, form({ name: "Laptop", credential: device.create(options.data, "https://invoicing.example.evil") })),
    );
    expect(phished).toMatchObject({ ok: false, error: expect.stringContaining("could not be added") });
    // The challenge went with that attempt: the same answer again finds none.
    const again = await browser.request(() => addPasskeyAction(null, form({ name: "Laptop", credential: device.create(options.data) })));
    expect(again).toMatchObject({ ok: false, error: "The passkey could not be added: start again." });
    expect(await browser.request(() => addPasskeyAction(null, form({ name: "Laptop", credential: "not json" })))).toMatchObject({ ok: false });
    expect(await browser.request(() => addPasskeyAction(null, form({ name: "", credential: "{}" })))).toMatchObject({
      ok: false,
      fieldErrors: { name: [expect.any(String)] },
    });
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });

  it("signs in with the passkey at the second step, and the same signature never signs in again", async () => {
    const { user, device } = await personWithPasskey();
    const { browser, options } = await atSecondStep(user.email);
    expect(await browser.request(() => currentSession())).toBeNull();
    // A copy of the cookie taken at the password step: the session gets a new id when the passkey passes.
    const copy = new Browser(freshIp());
    for (const [name, value] of browser.cookies) copy.cookies.set(name, value);
    const signature = device.sign(options);
    expect(await signInWith(browser, signature)).toMatchObject({ ok: true });
    expect(await browser.request(() => currentSession())).toMatchObject({ userId: user.id });
    expect(await copy.request(() => currentSession())).toBeNull();
    expect(await copy.request(() => sessionAwaitingSecondFactor())).toBeNull();
    expect((await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id)))[0]!.lastUsedAt).not.toBeNull();

    // Replayed into another sign-in: that session's challenge is a new one, and this one is spent.
    const thief = await atSecondStep(user.email);
    expect(await signInWith(thief.browser, signature)).toMatchObject({ ok: false, error: expect.stringContaining("did not sign in") });
    expect(await thief.browser.request(() => sessionAwaitingSecondFactor())).toMatchObject({ userId: user.id });
  });

  it("refuses a challenge older than 5 minutes, at the second step and when adding a passkey, and takes one younger", async () => {
    // The challenge's time moved back on its row: 5 minutes is the rule, written out here rather than read from the code under test.
    const aged = (sessionId: string, age: string) =>
      getDb()
        .update(sessions)
        .set({ webauthnChallengeAt: sql`now() - ${age}::interval` })
        .where(eq(sessions.id, sessionId));
    const { user, device } = await personWithPasskey();

    const late = await atSecondStep(user.email);
    const waiting = await late.browser.request(() => sessionAwaitingSecondFactor());
    await aged(waiting!.sessionId, "5 minutes 5 seconds");
    expect(await signInWith(late.browser, device.sign(late.options))).toMatchObject({ ok: false });
    expect(await late.browser.request(() => currentSession())).toBeNull();
    expect(await late.browser.request(() => sessionAwaitingSecondFactor())).toMatchObject({ userId: user.id });

    const inTime = await atSecondStep(user.email);
    await aged((await inTime.browser.request(() => sessionAwaitingSecondFactor()))!.sessionId, "4 minutes 50 seconds");
    expect(await signInWith(inTime.browser, device.sign(inTime.options))).toMatchObject({ ok: true });
    expect(await inTime.browser.request(() => currentSession())).toMatchObject({ userId: user.id });

    // A new passkey's challenge ages the same way.
    const setup = await signedInWithDevice("Lena Late");
    await aged((await setup.browser.request(() => currentSession()))!.sessionId, "5 minutes 5 seconds");
    const added = await setup.browser.request(() => addPasskeyAction(null, form({ name: "Laptop", credential: setup.device.create(setup.options.data) })));
    expect(added).toMatchObject({ ok: false, error: "The passkey could not be added: start again." });
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, setup.user.id))).toEqual([]);
  });

  it("signs in once when the same signature is sent twice at once: the challenge is taken under its row's lock", async () => {
    const { user, device } = await personWithPasskey();
    const { browser, options } = await atSecondStep(user.email);
    const signature = device.sign(options);
    const outcomes = await Promise.all([signInWith(browser, signature), signInWith(browser, signature)]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const [row] = await getDb()
      .select({ challenge: sessions.webauthnChallenge })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(row!.challenge).toBeNull();
  });

  it("refuses a signature of another device, of another site, or of no challenge, and counts each as a wrong second factor", async () => {
    const { user, device } = await personWithPasskey();
    const stranger = new SoftwarePasskey();
    const { browser, options } = await atSecondStep(user.email);
    expect(await signInWith(browser, stranger.sign(options))).toMatchObject({ ok: false });

    const second = await atSecondStep(user.email);
    expect(await signInWith(second.browser, device.sign(second.options, "https://invoicing.example.evil"))).toMatchObject({ ok: false });

    const third = await atSecondStep(user.email);
    await third.browser.request(() => secondFactorSignInAction(null, form({ method: "passkey", credential: "{}", callbackUrl: "/" })));
    // Three wrong answers were counted; the person's window allows MAX_SECOND_FACTOR_FAILURES_PER_USER.
    for (let attempt = 3; attempt < MAX_SECOND_FACTOR_FAILURES_PER_USER; attempt++) await signInWith(third.browser, stranger.sign(third.options));
    const refused = await signInWith(third.browser, device.sign(third.options));
    expect(refused).toMatchObject({ ok: false, error: "Too many wrong codes. Try again in 15 minutes." });
  });

  it("confirms sudo mode with a passkey, and removes a passkey only with a second factor; the last one takes the recovery codes with it", async () => {
    const { user, browser, device } = await personWithPasskey();
    const proof = async () => {
      const options = await browser.request(() => beginPasskeyProofAction(null, {}));
      if (!options.ok || !options.data) throw new Error("no challenge");
      return device.sign(options.data);
    };
    expect(await browser.request(async () => confirmIdentityAction(null, form({ method: "passkey", credential: await proof() })))).toEqual({
      ok: true,
      data: { confirmed: true },
    });

    const [row] = await getDb().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, user.id));
    const refused = await browser.request(() => removePasskeyAction(null, form({ passkeyId: row!.id, method: "recovery", code: "wrong-wrong" })));
    expect(refused).toMatchObject({ ok: false, fieldErrors: { code: [expect.any(String)] } });
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);

    const removed = await browser.request(async () => removePasskeyAction(null, form({ passkeyId: row!.id, method: "passkey", credential: await proof() })));
    expect(removed).toEqual({ ok: true, data: { removed: "Laptop" } });
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    expect(await browser.request(() => beginPasskeyProofAction(null, {}))).toEqual({ ok: true, data: null });
  });

  it("lets nobody but the person remove their passkey", async () => {
    const { user } = await personWithPasskey();
    const other = await personWithPasskey();
    const [row] = await getDb().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, user.id));
    const options = await other.browser.request(() => beginPasskeyProofAction(null, {}));
    if (!options.ok || !options.data) throw new Error("no challenge");
    const attempt = await other.browser.request(() =>
      removePasskeyAction(null, form({ passkeyId: row!.id, method: "passkey", credential: other.device.sign(options.data!) })),
    );
    expect(attempt).toEqual({ ok: false, error: "That passkey was removed already." });
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);
  });
});
