import QRCode from "qrcode";
import type { Tx } from "@/db";
import { hasSecondFactor, removeTotp, replaceRecoveryCodes, sealedTotpSecret, startTotpSetup, takeTotpStep } from "@/db/queries/two-factor";
import { UserFacingError } from "@/lib/errors";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { openSecret, sealSecret } from "./sealed-secret";
import { newTotpSecret, totpStepOf, totpUri } from "./totp";

/** What the setup shows once: the QR code and, for typing in by hand, the same secret as text. */
export interface TotpSetupDto {
  secret: string;
  qrCodeSvg: string;
}

/** Starts setting up an authenticator app with a new secret (a setup begun earlier is replaced). */
export async function beginTotpSetup(userId: string, account: string): Promise<TotpSetupDto> {
  const secret = newTotpSecret();
  if (!(await startTotpSetup(userId, sealSecret(secret)))) throw new UserFacingError("Your authenticator app is already set up. Remove it first to set up another.");
  const qrCodeSvg = await QRCode.toString(totpUri(secret, account), { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, qrCodeSvg };
}

/** Ten new recovery codes replace the old ones; the codes are returned to be shown once and only their hashes kept. */
export async function issueRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(tx, userId, codes.map(hashRecoveryCode));
  return codes;
}

/**
 * The first code from the app confirms the setup: from then on sign-in asks for a code. Returns
 * the recovery codes, made in the same transaction.
 */
export async function confirmTotpSetup(tx: Tx, userId: string, code: string): Promise<string[]> {
  const sealed = await sealedTotpSecret(userId, "setup", tx);
  if (!sealed) throw new UserFacingError("Start the setup again: it was finished or replaced in another window.");
  const step = await totpStepOf(openSecret(sealed), code.replace(/\s/g, ""));
  if (step === null || !(await takeTotpStep(tx, userId, step, "setup"))) {
    throw new UserFacingError("Check the code.", { code: ["That code does not match. Enter the 6-digit code your app shows now."] });
  }
  return issueRecoveryCodes(tx, userId);
}

/** Removes the authenticator app (and with it the recovery codes); refused when there is none. */
export async function removeTotpFactor(tx: Tx, userId: string): Promise<void> {
  if (!(await removeTotp(tx, userId))) throw new UserFacingError("Two-factor authentication is already off.");
}

/** Renewing recovery codes needs a second factor to recover into. */
export async function renewRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  if (!(await hasSecondFactor(userId, tx))) throw new UserFacingError("Set up an authenticator app first: recovery codes stand in for it.");
  return issueRecoveryCodes(tx, userId);
}
