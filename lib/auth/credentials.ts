import { CredentialsSignin } from "next-auth";
import { checkPassword, clearSignInFailures, recentSignInFailures, recordSignInFailure } from "@/db/queries/users";
import { signInInput } from "@/lib/validation";

/** Failures within 15 minutes after which sign-in is refused for a while. */
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;

export class TooManyAttempts extends CredentialsSignin {
  code = "too_many_attempts";
}

/**
 * The Credentials provider's check: the user's id for a right email and password, null for a
 * wrong one (the same answer whether or not the email exists), and TooManyAttempts once the
 * email or the client address has failed too often, even with the right password.
 */
export async function authorizeCredentials(credentials: unknown, clientIp: string): Promise<{ id: string } | null> {
  const parsed = signInInput.safeParse(credentials);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const [byEmail, byIp] = [`email:${email}`, `ip:${clientIp}`];
  const failures = await recentSignInFailures([byEmail, byIp]);
  if ((failures[byEmail] ?? 0) >= MAX_FAILURES_PER_EMAIL || (failures[byIp] ?? 0) >= MAX_FAILURES_PER_IP) throw new TooManyAttempts();
  const user = await checkPassword(email, password);
  if (!user) {
    await recordSignInFailure([byEmail, byIp]);
    return null;
  }
  await clearSignInFailures(byEmail);
  return { id: user.id };
}
