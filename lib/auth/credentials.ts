import { CredentialsSignin } from "next-auth";
import { attemptFailed, attemptSucceeded, countAttempt, type CountedAttempt, type ThrottleLimit } from "@/db/queries/auth-throttle";
import { findUserWithPasswordHash, type UserDto } from "@/db/queries/users";
import { verifyAgainstNothing, verifyPassword } from "@/lib/auth/password";
import { signInInput } from "@/lib/auth/input";

/** Failed sign-ins counted within a 15-minute window, after which sign-in is refused until it ends. */
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** The email has failed too often: refused even with the right password, from any address. */
export class TooManyAttemptsForEmail extends CredentialsSignin {
  code = "too_many_attempts_email";
}

/** The client address has failed too often, across emails. */
export class TooManyAttemptsFromAddress extends CredentialsSignin {
  code = "too_many_attempts_ip";
}

/** The user whose password matches, or null; the hash never leaves this function. */
export async function checkPassword(email: string, password: string): Promise<UserDto | null> {
  const found = await findUserWithPasswordHash(email);
  if (!found) return verifyAgainstNothing(password).then(() => null);
  return (await verifyPassword(password, found.passwordHash)) ? found.user : null;
}

/**
 * The Credentials provider's check: the user's id for a right email and password, null for a
 * wrong one (the same answer whether or not the email exists), and a TooManyAttempts… refusal
 * once the email or the client address has failed too often, even with the right password.
 *
 * The attempt is counted for the address and the email before the password is checked, in one
 * statement per subject that refuses once the window is full, so however many attempts run at
 * once, at most MAX_FAILURES_PER_EMAIL passwords per email (and MAX_FAILURES_PER_IP per address)
 * are checked and fail in a window. A success gives its own count back and, for the email,
 * forgets the failures counted before it began (not those of attempts running alongside it).
 */
export async function authorizeCredentials(credentials: unknown, clientIp: string): Promise<{ id: string } | null> {
  const parsed = signInInput.safeParse(credentials);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const byIp: ThrottleLimit = { subject: `signin-ip:${clientIp}`, limit: MAX_FAILURES_PER_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const byEmail: ThrottleLimit = { subject: `signin-email:${email}`, limit: MAX_FAILURES_PER_EMAIL, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const attempt = await countAttempt([byIp, byEmail]);
  if ("refusedBy" in attempt) throw attempt.refusedBy === byIp ? new TooManyAttemptsFromAddress() : new TooManyAttemptsForEmail();
  const [ipAttempt, emailAttempt] = attempt.counted as [CountedAttempt, CountedAttempt];
  const user = await checkPassword(email, password);
  if (!user) {
    await attemptFailed(emailAttempt);
    return null;
  }
  await attemptSucceeded(emailAttempt, { forgetFailures: true });
  await attemptSucceeded(ipAttempt, { forgetFailures: false });
  return { id: user.id };
}
