import { z } from "zod";

/** A 6-digit code from an authenticator app, as typed (spaces allowed, as apps show "123 456"). */
export const totpCode = z
  .string()
  .trim()
  .max(16)
  .transform((code) => code.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app."));

/** A recovery code as typed: `xxxxx-xxxxx`, in any case, with or without the dash. */
export const recoveryCode = z.string().trim().min(1, "Enter one of your recovery codes.").max(32, "A recovery code is 10 letters and digits.");

/** A passkey's answer as the browser gave it: its PublicKeyCredential as JSON, checked by @simplewebauthn/server. */
export const passkeyCredential = z.string().min(2, "Use your passkey again.").max(16_384, "That passkey answer is too long.");

/** A second factor given again: a code from the app, a recovery code, or a passkey (docs/security.md#sudo-mode). */
export const secondFactorProofInput = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: totpCode }),
  z.object({ method: z.literal("recovery"), code: recoveryCode }),
  z.object({ method: z.literal("passkey"), credential: passkeyCredential }),
]);

export const confirmTotpSetupInput = z.object({ code: totpCode });
