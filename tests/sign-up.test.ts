import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { authThrottle, users } from "@/db/schema";
import { MAX_FAILURES_PER_IP, SIGN_IN_WINDOW_SECONDS } from "@/lib/auth/credentials";
import { signUp, TooManySignUps } from "@/lib/auth/sign-up";
import { form } from "./helpers/factories";
import { Browser } from "./helpers/next-request";

// The sign-up action for real: it signs the new user in through next-auth.
vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);

const { signUpAction } = await import("@/app/(auth)/actions");

let counter = 0;
const freshIp = () => `192.0.2.${++counter}`;
const clientAt = (ip: string) => ({ ip, userAgent: "vitest" });
const account = (email = `new-${++counter}@example.test`) => ({
  name: "Nora New",
  email,
  password: "a-long-enough-password",
  organizationName: "Nora's Bakery",
});
const REDIRECTED = { digest: expect.stringMatching(/^NEXT_REDIRECT;/) };

/** The action's answer, or "signed in" for the redirect into the new organization. */
async function signUpFrom(browser: Browser, details: ReturnType<typeof account>) {
  try {
    return await browser.request(() => signUpAction(null, form(details)));
  } catch (error) {
    expect(error).toMatchObject(REDIRECTED);
    return "signed in" as const;
  }
}

describe("sign-up", () => {
  it("creates one account for concurrent sign-ups with one email and tells the others it exists", async () => {
    const details = account();
    const results = await Promise.all(Array.from({ length: 6 }, () => signUpFrom(new Browser(freshIp()), details)));
    expect(results.filter((r) => r === "signed in")).toHaveLength(1);
    const message = "An account with this email already exists. Sign in instead.";
    expect(results.filter((r) => r !== "signed in")).toEqual(Array(5).fill({ ok: false, error: message, fieldErrors: { email: [message] } }));
    expect(await getDb().select().from(users).where(eq(users.email, details.email))).toHaveLength(1);
  });

  it("gives concurrent sign-ups naming one organization a slug each", async () => {
    const name = `Twin Bakery ${++counter}`;
    const created = await Promise.all(Array.from({ length: 6 }, () => signUp({ ...account(), organizationName: name }, clientAt(freshIp()))));
    expect(new Set(created.map((c) => c.orgSlug)).size).toBe(6);
  });

  const signUpsFrom = (ip: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        signUp(account(), clientAt(ip)).then(
          () => "created",
          (error: unknown) => (error instanceof TooManySignUps ? "refused" : Promise.reject(error)),
        ),
      ),
    );

  it("refuses sign-ups beyond 10 an hour from one address, even concurrently", async () => {
    const ip = freshIp();
    const outcomes = await signUpsFrom(ip, 13);
    expect(outcomes.filter((o) => o === "created")).toHaveLength(10);
    expect(await signUpFrom(new Browser(ip), account())).toEqual({
      ok: false,
      error: "Too many sign-ups from your network in the last hour. Try again later.",
    });
    expect(await signUpFrom(new Browser(freshIp()), account())).toBe("signed in");
  });

  it("takes the hourly number from SIGN_UPS_PER_HOUR, and refuses to run on a bad one", async () => {
    vi.stubEnv("SIGN_UPS_PER_HOUR", "2");
    try {
      expect((await signUpsFrom(freshIp(), 4)).filter((o) => o === "created")).toHaveLength(2);
      vi.stubEnv("SIGN_UPS_PER_HOUR", "ten");
      await expect(signUp(account(), clientAt(freshIp()))).rejects.toThrow('SIGN_UPS_PER_HOUR must be a whole number of sign-ups, at least 1 (it is "ten").');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("says the account was created when signing in from the address is paused", async () => {
    const ip = freshIp();
    await getDb()
      .insert(authThrottle)
      .values({ subject: `signin-ip:${ip}`, windowStart: new Date(Date.now() - (SIGN_IN_WINDOW_SECONDS / 2) * 1000), attempts: MAX_FAILURES_PER_IP });
    const details = account();
    expect(await signUpFrom(new Browser(ip), details)).toEqual({
      ok: false,
      error: "Your account was created, but sign-in from your network is paused after too many failed attempts. Sign in again in 15 minutes.",
    });
    expect(await getDb().select().from(users).where(eq(users.email, details.email))).toHaveLength(1);
  });
});
