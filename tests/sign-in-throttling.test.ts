import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { loginAttempts, users } from "@/db/schema";
import { authorizeCredentials, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP, TooManyAttempts } from "@/lib/auth/credentials";
import { hashPassword } from "@/lib/auth/password";
import { createUser } from "./helpers/factories";

const PASSWORD = "the-right-password";

async function userWithPassword() {
  const user = await createUser("Sam Signin");
  await getDb().update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, user.id));
  return user;
}

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

describe("sign-in", () => {
  it("lets the right password in and answers a wrong one, or an unknown email, the same way", async () => {
    const user = await userWithPassword();
    expect(await authorizeCredentials({ email: user.email, password: PASSWORD }, freshIp())).toEqual({ id: user.id });
    expect(await authorizeCredentials({ email: user.email, password: "wrong-password" }, freshIp())).toBeNull();
    expect(await authorizeCredentials({ email: "nobody@example.test", password: "wrong-password" }, freshIp())).toBeNull();
  });

  it(`refuses an email after ${MAX_FAILURES_PER_EMAIL} failures, even with the right password, from any address`, async () => {
    const user = await userWithPassword();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) expect(await authorizeCredentials({ email: user.email, password: `wrong-${i}` }, freshIp())).toBeNull();
    await expect(authorizeCredentials({ email: user.email, password: PASSWORD }, freshIp())).rejects.toBeInstanceOf(TooManyAttempts);
  });

  it(`refuses an address after ${MAX_FAILURES_PER_IP} failures across emails`, async () => {
    const user = await userWithPassword();
    const ip = freshIp();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await authorizeCredentials({ email: `guess-${i}@example.test`, password: "wrong-password" }, ip);
    await expect(authorizeCredentials({ email: user.email, password: PASSWORD }, ip)).rejects.toBeInstanceOf(TooManyAttempts);
    expect(await authorizeCredentials({ email: user.email, password: PASSWORD }, freshIp())).toEqual({ id: user.id });
  });

  it("forgets failures once the 15-minute window has passed", async () => {
    const user = await userWithPassword();
    const ip = freshIp();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) await authorizeCredentials({ email: user.email, password: "wrong-password" }, ip);
    await getDb().update(loginAttempts).set({ createdAt: new Date(Date.now() - 16 * 60_000) }).where(eq(loginAttempts.subject, `email:${user.email}`));
    expect(await authorizeCredentials({ email: user.email, password: PASSWORD }, ip)).toEqual({ id: user.id });
  });
});
