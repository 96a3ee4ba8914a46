import QRCode from "qrcode";
import type { Tx } from "@/db";
import { insertPasskey, removePasskey, type PasskeyDto } from "@/db/queries/passkeys";
import { hasSecondFactor, removeTotp, replaceRecoveryCodes, sealedTotpSecret, startTotpSetup, takeTotpStep } from "@/db/queries/two-factor";
import { UserFacingError } from "@/lib/errors";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import type { VerifiedPasskey } from "./passkeys";
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
  if (!(await startTotpSetup(userId, sealSecret(secret))))
    throw new UserFacingError("Your authenticator app is already set up. Remove it first to set up another.");
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
 * The first code from the app confirms the setup: from then on sign-in asks for a code. As the
 * person's first second factor it brings the recovery codes, made in the same transaction and
 * returned to be shown once; beside a passkey, null (they have theirs).
 */
export async function confirmTotpSetup(tx: Tx, userId: string, code: string): Promise<string[] | null> {
  const first = !(await hasSecondFactor(userId, tx));
  const sealed = await sealedTotpSecret(userId, "setup", tx);
  if (!sealed) throw new UserFacingError("Start the setup again: it was finished or replaced in another window.");
  const step = await totpStepOf(openSecret(sealed), code.replace(/\s/g, ""));
  if (step === null || !(await takeTotpStep(tx, userId, step, "setup"))) {
    throw new UserFacingError("Check the code.", { code: ["That code does not match. Enter the 6-digit code your app shows now."] });
  }
  return first ? issueRecoveryCodes(tx, userId) : null;
}

/** Removes the authenticator app (and with it the recovery codes); refused when there is none. */
export async function removeTotpFactor(tx: Tx, userId: string): Promise<void> {
  if (!(await removeTotp(tx, userId))) throw new UserFacingError("Two-factor authentication is already off.");
}

/** Renewing recovery codes needs a second factor to recover into. */
export async function renewRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  if (!(await hasSecondFactor(userId, tx))) throw new UserFacingError("Set up an authenticator app or a passkey first: recovery codes stand in for them.");
  return issueRecoveryCodes(tx, userId);
}

/**
 * Keeps the device's new passkey (its answer checked by verifyNewPasskey). As the person's first
 * second factor it turns two-factor on and brings ten recovery codes, returned to be shown once;
 * otherwise null (they have codes already).
 */
export async function addPasskey(tx: Tx, userId: string, name: string, passkey: VerifiedPasskey): Promise<string[] | null> {
  const first = !(await hasSecondFactor(userId, tx));
  await insertPasskey(tx, { userId, name, ...passkey });
  return first ? issueRecoveryCodes(tx, userId) : null;
}

/** Removes one of the person's passkeys; refused when it is not theirs (or gone already). */
export async function removePasskeyFactor(tx: Tx, userId: string, passkeyId: string): Promise<PasskeyDto> {
  const removed = await removePasskey(tx, userId, passkeyId);
  if (!removed) throw new UserFacingError("That passkey was removed already.");
  return removed;
}
