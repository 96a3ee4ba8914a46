import { randomByte } from "./random-pool";

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters drawn uniformly from the base62 alphabet with a CSPRNG (rejection sampling). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 * 62: bytes above it would bias the first characters of the alphabet.
    if (byte < 248) out += BASE62_ALPHABET[byte % 62];
  }
  return out;
}

/** A non-negative integer in base62, left-padded with "0" to `width` characters. */
export function encodeBase62(value: number, width: number): string {
  let out = "";
  let rest = value;
  do {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, "0");
}

/** The integer `encodeBase62` wrote, or null for a character outside the alphabet. */
export function decodeBase62(text: string): number | null {
  let value = 0;
  for (const char of text) {
    const digit = BASE62_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 62 + digit;
  }
  return value;
}
