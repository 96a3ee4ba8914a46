import { getDb } from "@/db";
import type { ThrottleLimit } from "@/db/queries/auth-throttle";
import { sealedTotpSecret, takeRecoveryCode, takeTotpStep } from "@/db/queries/two-factor";
import { UserFacingError } from "@/lib/errors";
import { hashRecoveryCode, normalizeRecoveryCode } from "./recovery-codes";
import { passkeyAssertionPasses } from "./passkeys";
import { openSecret } from "./sealed-secret";
import { totpStepOf } from "./totp";
import { SIGN_IN_WINDOW_SECONDS } from "./credentials";
import { throttledCheck } from "./throttled-check";

/** Wrong second factors counted per person and per address, as passwords are (docs/features/two-factor.md), in the same 15-minute window. */
export const MAX_SECOND_FACTOR_FAILURES_PER_USER = 5;
export const MAX_SECOND_FACTOR_FAILURES_PER_IP = 30;

/**
 * What a person gives as their second factor: a code from their authenticator app, one of their
 * recovery codes, or a passkey's signature of the session's challenge (its PublicKeyCredential as JSON).
 */
export type SecondFactorProof = { method: "totp"; code: string } | { method: "recovery"; code: string } | { method: "passkey"; credential: string };

/** Whose second factor is checked, in which session: a passkey signs that session's challenge. */
export interface ProvingSession {
  userId: string;
  sessionId: string;
}

export class TooManySecondFactorAttempts extends UserFacingError {
  constructor() {
    super("Too many wrong codes. Try again in 15 minutes.");
  }
}

/** Whether the proof passes, using it up: a TOTP code's step, a recovery code and a passkey's challenge work once. */
async function proofPasses({ userId, sessionId }: ProvingSession, proof: SecondFactorProof): Promise<boolean> {
  if (proof.method === "passkey") return passkeyAssertionPasses({ userId, sessionId }, proof.credential);
  if (proof.method === "recovery") {
    const code = normalizeRecoveryCode(proof.code);
    return code !== null && takeRecoveryCode(getDb(), userId, hashRecoveryCode(code));
  }
  const sealed = await sealedTotpSecret(userId, "confirmed");
  if (!sealed) return false;
  const step = await totpStepOf(openSecret(sealed), proof.code.replace(/\s/g, ""));
  return step !== null && takeTotpStep(getDb(), userId, step, "confirmed");
}

/**
 * Checks a person's second factor, throttled like the password (lib/auth/throttled-check.ts): at
 * most MAX_SECOND_FACTOR_FAILURES_PER_USER codes are checked and fail in a window, however many
 * attempts run at once. Throws TooManySecondFactorAttempts when the window is full.
 */
export async function checkSecondFactor(session: ProvingSession, proof: SecondFactorProof, clientIp: string): Promise<boolean> {
  const { userId } = session;
  const byIp: ThrottleLimit = { subject: `2fa-ip:${clientIp}`, limit: MAX_SECOND_FACTOR_FAILURES_PER_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const byUser: ThrottleLimit = { subject: `2fa-user:${userId}`, limit: MAX_SECOND_FACTOR_FAILURES_PER_USER, windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const outcome = await throttledCheck(byIp, byUser, async () => ((await proofPasses(session, proof)) ? true : null));
  if ("refusedBy" in outcome) throw new TooManySecondFactorAttempts();
  return outcome.passed !== null;
}

/** checkSecondFactor, refusing a wrong proof with a message for the code field: what every form that asks for one needs. */
const WRONG_PROOF: Record<SecondFactorProof["method"], string> = {
  totp: "That code does not match, or it was used already. Wait for the next one.",
  recovery: "That recovery code does not match, or it was used already.",
  passkey: "That passkey did not sign in. Try again, or use another way.",
};

export async function requireSecondFactor(session: ProvingSession, proof: SecondFactorProof, clientIp: string): Promise<void> {
  if (await checkSecondFactor(session, proof, clientIp)) return;
  if (proof.method === "passkey") throw new UserFacingError(WRONG_PROOF.passkey);
  throw new UserFacingError("Check the code.", { code: [WRONG_PROOF[proof.method]] });
}
