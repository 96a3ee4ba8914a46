import { createHash, randomInt } from "node:crypto";

/** Ten single-use recovery codes, shown once. */
export const RECOVERY_CODE_COUNT = 10;

// Lower-case letters and digits without 0/o, 1/l/i: read off paper and typed back without doubt.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const HALF = 5;

/** A new code, `xxxxx-xxxxx`: 10 characters of a 31-letter alphabet, about 50 random bits. */
function newRecoveryCode(): string {
  const draw = () => Array.from({ length: HALF }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${draw()}-${draw()}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** A code as typed, without case, spaces or dashes; null when it cannot be one of ours. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, "");
  return code.length === HALF * 2 && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** What is stored: the SHA-256 (hex) of the normalized code. Fifty random bits need no slow hash behind a throttle. */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256")
    .update(`recovery:${normalizeRecoveryCode(code) ?? code}`)
    .digest("hex");
}
