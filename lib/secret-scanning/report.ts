import { verify, type KeyObject } from "node:crypto";
import { z } from "zod";

/** A report's body: GitHub sends tokens in batches; a body beyond this is refused before it is read further. */
export const SECRET_SCANNING_MAX_BODY_BYTES = 1024 * 1024;
export const SECRET_SCANNING_MAX_TOKENS = 1000;

/** One token a scanner matched against our published pattern, with where it found it. */
export const secretScanningReport = z
  .array(
    z.object({
      token: z.string().min(1).max(512),
      type: z.string().min(1).max(128),
      url: z.string().max(2048).optional(),
      source: z.string().max(128).optional(),
    }),
  )
  .min(1)
  .max(SECRET_SCANNING_MAX_TOKENS);

export type SecretScanningReport = z.output<typeof secretScanningReport>;

/** What we answer for each token (GitHub's format). */
export interface TokenLabel {
  token_hash: string;
  token_type: string;
  label: "true_positive" | "false_positive";
}

/**
 * Whether `signature` (base64 of a DER ECDSA signature, `Github-Public-Key-Signature`) signs the
 * raw body with `key` (P-256 with SHA-256). A signature that cannot be decoded does not sign it.
 */
export function signedBy(body: Buffer, signature: string, key: KeyObject): boolean {
  try {
    return verify("sha256", body, { key, dsaEncoding: "der" }, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
