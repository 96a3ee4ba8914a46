import { getUser } from "@/db/queries/users";
import { markAuthenticated } from "@/db/queries/sessions";
import { UserFacingError } from "@/lib/errors";
import type { SignedInSession } from "@/lib/session";
import { wholeNumberFromEnv } from "@/core/env-number";
import { throttledPasswordCheck } from "./credentials";
import { requireSecondFactor } from "./second-factor";
import type { IdentityProof } from "./identity-input";

/**
 * How long a password or second factor given in a session lets it make sensitive changes without
 * asking again (GitHub's sudo mode): 10 minutes. `SUDO_MODE_SECONDS` overrides it, so
 * browser tests can see the question without waiting 10 minutes.
 */
export function sudoModeSeconds(): number {
  return wholeNumberFromEnv("SUDO_MODE_SECONDS", 10 * 60, "seconds");
}

/** Whether the session gave a password or second factor recently enough for a sensitive change. */
export function inSudoMode(session: Pick<SignedInSession, "authenticatedAt">, now = Date.now()): boolean {
  return now - session.authenticatedAt.getTime() <= sudoModeSeconds() * 1000;
}

/** The refusal of a sensitive change outside sudo mode; the dashboard answers it with the confirmation dialog. */
export const SUDO_REQUIRED_MESSAGE = "Confirm it's you: enter your password again to make this change.";

/**
 * Confirms the session's person with their password or a second factor, throttled as sign-in is,
 * and starts sudo mode's clock again. A wrong answer is refused with a message for its field.
 */
export async function confirmIdentity(session: SignedInSession, proof: IdentityProof, clientIp: string): Promise<void> {
  if (proof.method === "password") {
    const person = await getUser(session.userId);
    if (!person) throw new UserFacingError("Your session has ended. Sign in again.");
    const outcome = await throttledPasswordCheck(person.email, proof.password, clientIp);
    if ("refusedBy" in outcome) throw new UserFacingError("Too many wrong passwords. Try again in 15 minutes.");
    if (outcome.user?.id !== session.userId) throw new UserFacingError("Check your password.", { password: ["That password is not right."] });
  } else {
    await requireSecondFactor(session, proof, clientIp);
  }
  await markAuthenticated(session.sessionId, session.userId);
}
