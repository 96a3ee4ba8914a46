import { eq, sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { sessions, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { createUser, form } from "./helpers/factories";
import { Browser } from "./helpers/next-request";

// The real chain: next-auth's cookie, decoded from the request, checked against `sessions`.
vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);
vi.unmock("@/lib/session");

const { signInAction, signOutAction, signOutEverywhereAction } = await import("@/app/(auth)/actions");
const { currentSession } = await import("@/lib/session");

const PASSWORD = "the-right-password";
const SESSION_COOKIE = "authjs.session-token";

async function userWithPassword() {
  const user = await createUser("Sam Session");
  await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return user;
}

/** Signs in through the sign-in action, as a browser does, and returns that browser. */
async function signedIn(email: string, ip = "203.0.113.10"): Promise<Browser> {
  const browser = new Browser(ip);
  await expect(browser.request(() => signInAction(null, form({ email, password: PASSWORD, callbackUrl: "/" })))).rejects.toMatchObject({
    digest: expect.stringMatching(/^NEXT_REDIRECT;/),
  });
  expect(browser.cookies.get(SESSION_COOKIE)).toBeTruthy();
  return browser;
}

/** Another browser holding a copy of this one's cookies, as a thief would. */
function copyOf(browser: Browser): Browser {
  const copy = new Browser("198.51.100.99", "curl");
  for (const [name, value] of browser.cookies) copy.cookies.set(name, value);
  return copy;
}

const sessionOf = (browser: Browser) => browser.request(() => currentSession());

describe("sessions end on the server", () => {
  it("starts a session row at sign-in that the cookie names", async () => {
    const user = await userWithPassword();
    const browser = await signedIn(user.email);
    const session = await sessionOf(browser);
    expect(session).toMatchObject({ userId: user.id });
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, session!.sessionId));
    expect(row).toMatchObject({ userId: user.id, ip: "203.0.113.10", userAgent: "vitest" });
  });

  it("refuses a copy of the cookie once its session signed out, and keeps the user's other sessions", async () => {
    const user = await userWithPassword();
    const laptop = await signedIn(user.email);
    const phone = await signedIn(user.email);
    const stolen = copyOf(laptop);
    expect(await sessionOf(stolen)).toMatchObject({ userId: user.id });

    await expect(laptop.request(() => signOutAction(null, {}))).rejects.toMatchObject({ digest: expect.stringMatching(/^NEXT_REDIRECT;/) });

    expect(laptop.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionOf(stolen)).toBeNull();
    expect(await sessionOf(phone)).toMatchObject({ userId: user.id });
  });

  it("ends every session of the user with sign out everywhere, and no one else's", async () => {
    const user = await userWithPassword();
    const other = await userWithPassword();
    const laptop = await signedIn(user.email);
    const phone = await signedIn(user.email);
    const stolen = copyOf(phone);
    const someoneElse = await signedIn(other.email);

    const result = laptop.request(() => signOutEverywhereAction(null, {}));
    await expect(result).rejects.toMatchObject({ digest: expect.stringMatching(/^NEXT_REDIRECT;/) });

    expect(await sessionOf(laptop)).toBeNull();
    expect(await sessionOf(phone)).toBeNull();
    expect(await sessionOf(stolen)).toBeNull();
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await sessionOf(someoneElse)).toMatchObject({ userId: other.id });
  });

  it("refuses sign out everywhere without a live session", async () => {
    const result = await new Browser().request(() => signOutEverywhereAction(null, {}));
    expect(result).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
  });

  it("refuses a validly signed cookie issued before sessions were kept on the server", async () => {
    const user = await userWithPassword();
    const browser = new Browser();
    browser.cookies.set(SESSION_COOKIE, await encode({ token: { sub: user.id }, secret: process.env.AUTH_SECRET!, salt: SESSION_COOKIE }));
    expect(await sessionOf(browser)).toBeNull();
  });

  it("refuses a session left unused for 14 days, and records use at most once an hour", async () => {
    const user = await userWithPassword();
    const browser = await signedIn(user.email);
    const { sessionId } = (await sessionOf(browser))!;
    const lastSeen = async () => (await getDb().select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, sessionId)))[0]!.at;

    await getDb()
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '30 minutes'` })
      .where(eq(sessions.id, sessionId));
    const halfAnHourAgo = await lastSeen();
    expect(await sessionOf(browser)).not.toBeNull();
    expect(await lastSeen()).toEqual(halfAnHourAgo);

    await getDb()
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '13 days'` })
      .where(eq(sessions.id, sessionId));
    expect(await sessionOf(browser)).not.toBeNull();
    expect((await lastSeen()).getTime()).toBeGreaterThan(Date.now() - 60_000);

    await getDb()
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '14 days 1 minute'` })
      .where(eq(sessions.id, sessionId));
    expect(await sessionOf(browser)).toBeNull();
  });
});
