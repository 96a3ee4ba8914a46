import "server-only";
import { eq } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { users } from "@/db/schema";

export interface UserDto {
  id: string;
  name: string;
  email: string;
}

export async function getUser(userId: string, db: DbOrTx = getDb()): Promise<UserDto | null> {
  const [row] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** The one read of a password hash: for the sign-in check of lib/auth/credentials.ts, which keeps it. */
export async function findUserWithPasswordHash(email: string): Promise<{ user: UserDto; passwordHash: string | null } | null> {
  const [row] = await getDb().select().from(users).where(eq(users.email, email.toLowerCase()));
  return row ? { user: { id: row.id, name: row.name, email: row.email }, passwordHash: row.passwordHash } : null;
}

/** The person with this email, or null. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserDto | null> {
  const [row] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.email, email.toLowerCase()));
  return row ?? null;
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
