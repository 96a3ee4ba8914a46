import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { authThrottle, users } from "@/db/schema";
import { authorizeCredentials, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP, TooManyAttemptsForEmail, TooManyAttemptsFromAddress } from "@/lib/auth/credentials";
import { hashPassword } from "@/lib/auth/password";
import { longestEventLoopGap } from "./helpers/event-loop";
import { createUser } from "./helpers/factories";

const PASSWORD = "the-right-password";

async function userWithPassword() {
  const user = await createUser("Sam Signin");
  await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return user;
}

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

type Outcome = "signed in" | "wrong password" | "refused for the email" | "refused for the address";

/** What one attempt came to; only "signed in" and "wrong password" had their password checked. */
async function attempt(email: string, password: string, ip: string): Promise<Outcome> {
  try {
    return (await authorizeCredentials({ email, password }, ip)) ? "signed in" : "wrong password";
  } catch (error) {
    if (error instanceof TooManyAttemptsForEmail) return "refused for the email";
    if (error instanceof TooManyAttemptsFromAddress) return "refused for the address";
    throw error;
  }
}

const count = (outcomes: Outcome[], outcome: Outcome) => outcomes.filter((o) => o === outcome).length;

describe("sign-in", () => {
  it("checks passwords without holding the event loop (50 ms), right, wrong or for an unknown email", async () => {
    const user = await userWithPassword();
    const { result, longestGapMs } = await longestEventLoopGap(() =>
      Promise.all([
        authorizeCredentials({ email: user.email, password: PASSWORD }, freshIp()),
        authorizeCredentials({ email: user.email, password: "wrong-password" }, freshIp()),
        authorizeCredentials({ email: "nobody@example.test", password: "wrong-password" }, freshIp()),
      ]),
    );
    expect(result).toEqual([{ id: user.id }, null, null]);
    expect(longestGapMs).toBeLessThan(50);
  });

  it("lets the right password in and answers a wrong one, or an unknown email, the same way", async () => {
    const user = await userWithPassword();
    expect(await authorizeCredentials({ email: user.email, password: PASSWORD }, freshIp())).toEqual({ id: user.id });
    expect(await authorizeCredentials({ email: user.email, password: "wrong-password" }, freshIp())).toBeNull();
    expect(await authorizeCredentials({ email: "nobody@example.test", password: "wrong-password" }, freshIp())).toBeNull();
  });

  it(`refuses an email after ${MAX_FAILURES_PER_EMAIL} failures, even with the right password, from any address`, async () => {
    const user = await userWithPassword();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) expect(await attempt(user.email, `wrong-${i}`, freshIp())).toBe("wrong password");
    expect(await attempt(user.email, PASSWORD, freshIp())).toBe("refused for the email");
  });

  it(`refuses an address after ${MAX_FAILURES_PER_IP} failures across emails, and says it is the address`, async () => {
    const user = await userWithPassword();
    const ip = freshIp();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await attempt(`guess-${i}@example.test`, "wrong-password", ip);
    expect(await attempt(user.email, PASSWORD, ip)).toBe("refused for the address");
    expect(await attempt(user.email, PASSWORD, freshIp())).toBe("signed in");
  });

  it("forgets an email's failures once it signs in", async () => {
    const user = await userWithPassword();
    const ip = freshIp();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) expect(await attempt(user.email, "wrong-password", ip)).toBe("wrong password");
      expect(await attempt(user.email, PASSWORD, ip)).toBe("signed in");
    }
  });

  it("forgets failures once the 15-minute window has passed", async () => {
    const user = await userWithPassword();
    const ip = freshIp();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) await attempt(user.email, "wrong-password", ip);
    expect(await attempt(user.email, PASSWORD, ip)).toBe("refused for the email");
    await getDb()
      .update(authThrottle)
      .set({ windowStart: sql`now() - interval '16 minutes'` })
      .where(eq(authThrottle.subject, `signin-email:${user.email}`));
    expect(await attempt(user.email, PASSWORD, ip)).toBe("signed in");
  });
});

describe("sign-in under concurrent attempts", () => {
  it(`checks at most ${MAX_FAILURES_PER_EMAIL} wrong passwords for one email, however many attempts run at once beside the right one`, async () => {
    const user = await userWithPassword();
    const outcomes = await Promise.all([
      attempt(user.email, PASSWORD, freshIp()),
      ...Array.from({ length: 20 }, (_, i) => attempt(user.email, `wrong-${i}`, freshIp())),
    ]);
    expect(count(outcomes, "wrong password")).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL);
    expect(count(outcomes, "wrong password") + count(outcomes, "signed in")).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL + 1);
    expect(count(outcomes, "refused for the email")).toBeGreaterThanOrEqual(20 - MAX_FAILURES_PER_EMAIL);
  });

  it(`checks at most ${MAX_FAILURES_PER_IP} passwords from one address, however many attempts run at once`, async () => {
    const ip = freshIp();
    const outcomes = await Promise.all(Array.from({ length: 53 }, (_, i) => attempt(`guess-${i}@example.test`, "wrong-password", ip)));
    expect(count(outcomes, "wrong password")).toBe(MAX_FAILURES_PER_IP);
    expect(count(outcomes, "refused for the address")).toBe(53 - MAX_FAILURES_PER_IP);
  });

  it("refuses the right password once five wrong ones are counted, even concurrently", async () => {
    const user = await userWithPassword();
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(user.email, `wrong-${i}`, freshIp())));
    expect(count(outcomes, "wrong password")).toBe(MAX_FAILURES_PER_EMAIL);
    expect(await attempt(user.email, PASSWORD, freshIp())).toBe("refused for the email");
  });
});
