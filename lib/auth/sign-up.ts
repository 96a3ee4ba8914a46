import "server-only";
import { countAttempt } from "@/db/queries/auth-throttle";
import { createUserWithOrganization } from "@/db/queries/users";
import { UserFacingError } from "@/lib/errors";

/** Sign-ups counted per client address and hour, successful or not, before any work. */
export const MAX_SIGN_UPS_PER_IP = 10;
export const SIGN_UP_WINDOW_SECONDS = 60 * 60;

export class TooManySignUps extends UserFacingError {
  constructor() {
    super("Too many sign-ups from your network in the last hour. Try again later.");
  }
}

/**
 * Sign-up: the account and its trial organization, unless this address has used up its
 * sign-ups for the hour (which also bounds how fast sign-up can be used to test which emails
 * have accounts). Throws EmailTakenError for an email that has one.
 */
export async function signUp(input: Parameters<typeof createUserWithOrganization>[0], clientIp: string): Promise<{ orgSlug: string }> {
  const attempt = await countAttempt([{ subject: `signup-ip:${clientIp}`, limit: MAX_SIGN_UPS_PER_IP, windowSeconds: SIGN_UP_WINDOW_SECONDS }]);
  if ("refusedBy" in attempt) throw new TooManySignUps();
  const { orgSlug } = await createUserWithOrganization(input);
  return { orgSlug };
}
