import { CredentialsSignin } from "next-auth";
import type { ThrottleLimit } from "@/db/queries/auth-throttle";
import { findUserWithPasswordHash, type UserDto } from "@/db/queries/users";
import { verifyAgainstNothing, verifyPassword } from "@/lib/auth/password";
import { signInInput } from "@/lib/auth/input";
import { throttledCheck } from "./throttled-check";

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
  // No account, or one that only signs in through its organization's provider: the same time spent, the same answer.
  if (!found?.passwordHash) return verifyAgainstNothing(password).then(() => null);
  return (await verifyPassword(password, found.passwordHash)) ? found.user : null;
}

/**
 * A password checked for `email`, throttled: at most MAX_FAILURES_PER_EMAIL passwords per email
 * (and MAX_FAILURES_PER_IP per address) are checked and fail in a window, however many attempts
 * run at once (lib/auth/throttled-check.ts). Sign-in and sudo mode's confirmation count against
 * the same windows, so asking for the password again gives no extra guesses.
 */
export async function throttledPasswordCheck(
  email: string,
  password: string,
  clientIp: string,
): Promise<{ refusedBy: "email" | "address" } | { user: UserDto | null }> {
  const byIp: ThrottleLimit = { subject: `signin-ip:${clientIp}`, limit: MAX_FAILURES_PER_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const byEmail: ThrottleLimit = { subject: `signin-email:${email}`, limit: MAX_FAILURES_PER_EMAIL, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const outcome = await throttledCheck(byIp, byEmail, () => checkPassword(email, password));
  if ("refusedBy" in outcome) return { refusedBy: outcome.refusedBy === byIp ? "address" : "email" };
  return { user: outcome.passed };
}

/**
 * The Credentials provider's check: the user's id for a right email and password, null for a
 * wrong one (the same answer whether or not the email exists), and a TooManyAttempts… refusal
 * once the email or the client address has failed too often, even with the right password.
 */
export async function authorizeCredentials(credentials: unknown, clientIp: string): Promise<{ id: string } | null> {
  const parsed = signInInput.safeParse(credentials);
  if (!parsed.success) return null;
  const outcome = await throttledPasswordCheck(parsed.data.email, parsed.data.password, clientIp);
  if ("refusedBy" in outcome) throw outcome.refusedBy === "address" ? new TooManyAttemptsFromAddress() : new TooManyAttemptsForEmail();
  return outcome.user && { id: outcome.user.id };
}
