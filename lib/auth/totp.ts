import { generateSecret, generateURI, verify } from "otplib";

/** RFC 6238 with the authenticator apps' defaults (SHA-1, 6 digits, 30 s), through otplib. */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "Invoicing";
/** A code of the step before or after the current one still passes: a phone's clock may be off by that much. */
const CLOCK_DRIFT_SECONDS = TOTP_PERIOD_SECONDS;

export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: ISSUER, label: account, secret });
}

/** Whether a 6-digit code fits the secret now: the 30-second step it belongs to, else null. */
export async function totpStepOf(secret: string, code: string, at = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epoch: Math.floor(at / 1000), epochTolerance: CLOCK_DRIFT_SECONDS });
  // The functional API answers for HOTP too; a TOTP result carries its step.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}
