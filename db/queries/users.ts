import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db";
import { activityLog, memberships, organizations, users } from "@/db/schema";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "@/lib/auth/password";
import { UserFacingError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { slugify, uniqueSlug } from "@/lib/slug";

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

/** Shown on the sign-up form's email field. */
export class EmailTakenError extends UserFacingError {
  constructor() {
    const message = "An account with this email already exists. Sign in instead.";
    super(message, { email: [message] });
  }
}

/**
 * The unique email decides, not a look beforehand: of concurrent sign-ups with one email, one
 * inserts and the others meet the constraint.
 */
async function insertUser(tx: Tx, user: typeof users.$inferInsert): Promise<void> {
  try {
    await tx.insert(users).values(user);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint_name?: string; constraint?: string } }).cause;
    if (cause?.code === "23505" && (cause.constraint_name ?? cause.constraint) === "users_email_unique") throw new EmailTakenError();
    throw error;
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
    const user = { id: newId("usr"), name: input.name, email: input.email };
    await insertUser(tx, { ...user, passwordHash });
    // Sign-ups naming the same organization choose its slug in turn; otherwise both would pick
    // the same free one and the second insert would fail on the unique slug.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organization-slug:${slugify(input.organizationName)}`}))`);
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
