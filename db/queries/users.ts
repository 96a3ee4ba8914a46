import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { memberships, organizations, users } from "@/db/schema";
import { insertActivity } from "@/db/queries/activity";
import { newId } from "@/core/ids";

export interface UserDto {
  id: string;
  name: string;
  email: string;
}

export async function getUser(userId: string, db: DbOrTx = getDb()): Promise<UserDto | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The one read of a password hash: for the sign-in check of lib/auth/credentials.ts, which keeps it. */
export async function findUserWithPasswordHash(email: string): Promise<{ user: UserDto; passwordHash: string } | null> {
  const [row] = await getDb().select().from(users).where(eq(users.email, email.toLowerCase()));
  return row ? { user: { id: row.id, name: row.name, email: row.email }, passwordHash: row.passwordHash } : null;
}

/** The email already has an account. */
export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists.");
    this.name = "EmailTakenError";
  }
}

/**
 * The unique email decides, not a look beforehand: of concurrent sign-ups with one email, one
 * inserts and the others meet the constraint.
 */
export async function insertUser(tx: Tx, user: typeof users.$inferInsert): Promise<void> {
  try {
    await tx.insert(users).values(user);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint_name?: string; constraint?: string } }).cause;
    if (cause?.code === "23505" && (cause.constraint_name ?? cause.constraint) === "users_email_unique") throw new EmailTakenError();
    throw error;
  }
}

/**
 * Sign-up: the user and a new trial organization they own, in one transaction. The organization
 * takes the first of `slugCandidates` (lib/slug.ts decides which slugs may be) no organization has.
 */
export async function createUserWithOrganization(input: {
  name: string;
  email: string;
  passwordHash: string;
  organizationName: string;
  slugCandidates: Iterable<string>;
  /** The signing-up browser's address and user agent, for the history's first entry. */
  client: { ip: string; userAgent: string | null };
}): Promise<{ user: UserDto; orgSlug: string }> {
  return getDb().transaction(async (tx) => {
    const user = { id: newId("usr"), name: input.name, email: input.email };
    await insertUser(tx, { ...user, passwordHash: input.passwordHash });
    let slug: string | undefined;
    let locked = false;
    for (const candidate of input.slugCandidates) {
      // Sign-ups naming the same organization choose its slug in turn; otherwise both would pick
      // the same free one and the second insert would fail on the unique slug.
      if (!locked) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organization-slug:${candidate}`}))`);
      locked = true;
      const [taken] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, candidate));
      if (!taken) {
        slug = candidate;
        break;
      }
    }
    if (slug === undefined) throw new Error(`Every slug candidate for "${input.organizationName}" is taken`);
    const orgId = newId("org");
    await tx.insert(organizations).values({ id: orgId, name: input.organizationName, slug });
    await tx.insert(memberships).values({ orgId, userId: user.id, role: "owner" });
    await insertActivity(tx, orgId, { kind: "user", userId: user.id, ...input.client }, [
      { action: "organization.created", target: { type: "organization", id: orgId, name: input.organizationName }, after: { name: input.organizationName, slug } },
    ]);
    return { user, orgSlug: slug };
  });
}
