import { verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { asStorable } from "@/lib/input-rules";

/** A report's body: GitHub sends tokens in batches; a body beyond this is refused before it is read further. */
export const SECRET_SCANNING_MAX_BODY_BYTES = 1024 * 1024;
export const SECRET_SCANNING_MAX_TOKENS = 1000;

/** Where a token was found: GitHub's URLs and sources are far shorter, and this bounds what is stored and mailed. */
const LEAK_URL_MAX_LENGTH = 2048;
const LEAK_SOURCE_MAX_LENGTH = 128;

/**
 * Text as the database can hold it (the string rules of lib/input-rules.ts): a NUL or an
 * unpaired surrogate becomes U+FFFD, and text past `maxLength` UTF-16 code units (so 3 ×
 * maxLength UTF-8 bytes) is cut, ending with "…". Cleaned rather than refused: where a key leaked
 * must never keep the key live (docs/security.md, "Leaked keys and secret scanning").
 */
function storableText(value: string, maxLength: number): string {
  return asStorable(value.length > maxLength ? `${value.slice(0, maxLength - 1)}…` : value);
}

const whereFound = (maxLength: number) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : storableText(value, maxLength)));

/**
 * One token a scanner matched against our published pattern, with where it found it. Only the
 * shape refuses a report: the token and its type bounded, at most 1,000 of them. The token is never
 * stored (one with a NUL or a surrogate fails our pattern: a false positive); its type, echoed in
 * the answer, and where it was found are cleaned.
 */
export const secretScanningReport = z
  .array(
    z.object({
      token: z.string().min(1).max(512),
      type: z
        .string()
        .min(1)
        .max(128)
        .transform((type) => storableText(type, 128)),
      url: whereFound(LEAK_URL_MAX_LENGTH),
      source: whereFound(LEAK_SOURCE_MAX_LENGTH),
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
