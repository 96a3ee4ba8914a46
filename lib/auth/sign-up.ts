import "server-only";
import { countAttempt } from "@/db/queries/auth-throttle";
import { createUserWithOrganization, EmailTakenError } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { UserFacingError } from "@/lib/errors";
import { slugCandidates } from "@/lib/slug";
import type { Client } from "@/lib/auth/client";

/** Sign-ups counted per client address and hour, successful or not, before any work. */
export const MAX_SIGN_UPS_PER_IP = 10;
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

/** Counts a sign-up from the client's address, refusing it past MAX_SIGN_UPS_PER_IP in the hour. */
export async function countSignUp(client: Client): Promise<void> {
  const attempt = await countAttempt([{ subject: `signup-ip:${client.ip}`, limit: MAX_SIGN_UPS_PER_IP, windowSeconds: SIGN_UP_WINDOW_SECONDS }]);
  if ("refusedBy" in attempt) throw new TooManySignUps();
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
