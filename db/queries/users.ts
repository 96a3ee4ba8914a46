import "server-only";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { activityLog, loginAttempts, memberships, organizations, users } from "@/db/schema";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "@/lib/auth/password";
import { newId } from "@/lib/ids";
import { uniqueSlug } from "@/lib/slug";

export interface UserDto {
  id: string;
  name: string;
  email: string;
}

export async function getUser(userId: string): Promise<UserDto | null> {
  const [row] = await getDb()
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The user whose password matches, or null; the hash never leaves this function. */
export async function checkPassword(email: string, password: string): Promise<UserDto | null> {
  const [row] = await getDb().select().from(users).where(eq(users.email, email.toLowerCase()));
  if (!row) return verifyAgainstNothing(password).then(() => null);
  if (!(await verifyPassword(password, row.passwordHash))) return null;
  return { id: row.id, name: row.name, email: row.email };
}

export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists. Sign in instead.");
  }
}

/** Sign-up: the user and a new trial organization they own, in one transaction. */
export async function createUserWithOrganization(input: {
  name: string;
  email: string;
  password: string;
  organizationName: string;
}): Promise<{ user: UserDto; orgSlug: string }> {
  const passwordHash = await hashPassword(input.password);
  return getDb().transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw new EmailTakenError();
    const user = { id: newId("usr"), name: input.name, email: input.email };
    await tx.insert(users).values({ ...user, passwordHash });
    const slug = await uniqueSlug(input.organizationName, async (candidate) => {
      const [taken] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, candidate));
      return Boolean(taken);
    });
    const orgId = newId("org");
    await tx.insert(organizations).values({ id: orgId, name: input.organizationName, slug, plan: "trial" });
    await tx.insert(memberships).values({ orgId, userId: user.id, role: "owner" });
    await tx.insert(activityLog).values({ orgId, actorUserId: user.id, action: "organization.created", targetId: orgId, metadata: { name: input.organizationName } });
    return { user, orgSlug: slug };
  });
}

const THROTTLE_WINDOW_MS = 15 * 60 * 1000;

export async function recentSignInFailures(subjects: string[]): Promise<Record<string, number>> {
  const since = new Date(Date.now() - THROTTLE_WINDOW_MS);
  const rows = await getDb()
    .select({ subject: loginAttempts.subject, failures: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(and(inArray(loginAttempts.subject, subjects), gte(loginAttempts.createdAt, since)))
    .groupBy(loginAttempts.subject);
  return Object.fromEntries(rows.map((row) => [row.subject, row.failures]));
}

/** Records a failure, and forgets failures too old to count so the table stays small. */
export async function recordSignInFailure(subjects: string[]): Promise<void> {
  await getDb().insert(loginAttempts).values(subjects.map((subject) => ({ subject })));
  await getDb().delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - THROTTLE_WINDOW_MS)));
}

export async function clearSignInFailures(subject: string): Promise<void> {
  await getDb().delete(loginAttempts).where(eq(loginAttempts.subject, subject));
}
