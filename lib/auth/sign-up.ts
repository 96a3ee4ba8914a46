import "server-only";
import { countAttempt } from "@/db/queries/auth-throttle";
import { wholeNumberFromEnv } from "@/core/env-number";
import { newId } from "@/core/ids";
import { getDb } from "@/db";
import { insertActivity } from "@/db/queries/activity";
import { insertMembership } from "@/db/queries/members";
import { firstFreeSlug, insertOrganization } from "@/db/queries/organizations";
import { EmailTakenError, insertUser, type UserDto } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { UserFacingError } from "@/lib/errors";
import { slugCandidates } from "@/lib/slug";
import type { Client } from "@/lib/auth/client";

/**
 * Sign-ups counted per client address and hour, successful or not, before any work: 10.
 * `SIGN_UPS_PER_HOUR` overrides it, for an office behind one address or for the e2e servers, whose
 * specs all sign up from 127.0.0.1.
 */
export function maxSignUpsPerAddress(): number {
  return wholeNumberFromEnv("SIGN_UPS_PER_HOUR", 10, "sign-ups");
}
const SIGN_UP_WINDOW_SECONDS = 60 * 60;

export class TooManySignUps extends UserFacingError {
  constructor() {
    super("Too many sign-ups from your network in the last hour. Try again later.");
  }
}

/** Shown on the sign-up form's email field. */
class EmailTaken extends UserFacingError {
  constructor() {
    const message = "An account with this email already exists. Sign in instead.";
    super(message, { email: [message] });
  }
}

/** Counts a sign-up from the client's address, refusing it past maxSignUpsPerAddress() in the hour. */
export async function countSignUp(client: Client): Promise<void> {
  const attempt = await countAttempt([{ subject: `signup-ip:${client.ip}`, limit: maxSignUpsPerAddress(), windowSeconds: SIGN_UP_WINDOW_SECONDS }]);
  if ("refusedBy" in attempt) throw new TooManySignUps();
}

/**
 * Sign-up: the user and a new trial organization they own, in one transaction with the
 * organization's first history entry. The organization takes the first of `slugCandidates`
 * (lib/slug.ts decides which slugs may be) no organization has.
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
    const slug = await firstFreeSlug(tx, input.slugCandidates);
    if (slug === null) throw new Error(`Every slug candidate for "${input.organizationName}" is taken`);
    const orgId = newId("org");
    await insertOrganization(tx, { id: orgId, name: input.organizationName, slug });
    await insertMembership(tx, orgId, user.id, "owner");
    await insertActivity(tx, orgId, { kind: "user", userId: user.id, ...input.client }, [
      {
        action: "organization.created",
        target: { type: "organization", id: orgId, name: input.organizationName },
        after: { name: input.organizationName, slug },
      },
    ]);
    return { user, orgSlug: slug };
  });
}

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  organizationName: string;
}

/**
 * Sign-up: the account and its trial organization, unless this address has used up its
 * sign-ups for the hour (which also bounds how fast sign-up can be used to test which emails
 * have accounts). Throws EmailTaken for an email that has one.
 */
export async function signUp({ password, ...input }: SignUpInput, client: Client): Promise<{ orgSlug: string }> {
  await countSignUp(client);
  const passwordHash = await hashPassword(password);
  try {
    const { orgSlug } = await createUserWithOrganization({ ...input, passwordHash, slugCandidates: slugCandidates(input.organizationName), client });
    return { orgSlug };
  } catch (error) {
    if (error instanceof EmailTakenError) throw new EmailTaken();
    throw error;
  }
}
