import { hash } from "node:crypto";
import { crc32 } from "node:zlib";
import { BASE62_ALPHABET, encodeBase62, randomBase62 } from "@/core/base62";
import type { Mode } from "@/core/enums";

/** A live key starts `ik_`, a test key `ik_test_` (docs/features/test-mode.md); the 32 characters after it are alike. */
export const API_KEY_PREFIXES = { live: "ik_", test: "ik_test_" } as const satisfies Record<Mode, string>;
export const API_KEY_PREFIX = API_KEY_PREFIXES.live;
const RANDOM_LENGTH = 26;
const CHECKSUM_LENGTH = 6;
const BODY_LENGTH = RANDOM_LENGTH + CHECKSUM_LENGTH;
/** A value's length in each mode. */
export const API_KEY_LENGTHS = { live: API_KEY_PREFIXES.live.length + BODY_LENGTH, test: API_KEY_PREFIXES.test.length + BODY_LENGTH } as const;
const BODY = new RegExp(`^[${BASE62_ALPHABET}]{${BODY_LENGTH}}$`);

/**
 * What a secret scanner matches (published in docs/security.md): `ik_` or `ik_test_` and 32
 * base62 characters, not inside a longer word. A match is one of ours only if parseApiKey's
 * checksum holds.
 */
export const API_KEY_PATTERN = new RegExp(`\\bik_(?:test_)?[${BASE62_ALPHABET}]{${BODY_LENGTH}}\\b`, "g");

/** The mode a value's prefix says; a value of neither prefix is a live key's shape, refused by parseApiKey. */
export function modeOfApiKey(value: string): Mode {
  return value.startsWith(API_KEY_PREFIXES.test) ? "test" : "live";
}

function checksum(random: string): string {
  return encodeBase62(crc32(random), CHECKSUM_LENGTH);
}

/** A new key value: the mode's prefix + 26 random base62 characters + a 6-character base62 CRC32 of them. */
export function generateApiKey(mode: Mode = "live"): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${API_KEY_PREFIXES[mode]}${random}${checksum(random)}`;
}

export type ApiKeyParseResult = { ok: true } | { ok: false; reason: "prefix" | "length" | "alphabet" | "checksum" };

/** Checks a presented value's shape and checksum without any database lookup. */
export function parseApiKey(value: string): ApiKeyParseResult {
  if (!value.startsWith(API_KEY_PREFIX)) return { ok: false, reason: "prefix" };
  const mode = modeOfApiKey(value);
  if (value.length !== API_KEY_LENGTHS[mode]) return { ok: false, reason: "length" };
  const body = value.slice(API_KEY_PREFIXES[mode].length);
  if (!BODY.test(body)) return { ok: false, reason: "alphabet" };
  const random = body.slice(0, RANDOM_LENGTH);
  if (checksum(random) !== body.slice(RANDOM_LENGTH)) return { ok: false, reason: "checksum" };
  return { ok: true };
}

/** What is stored: the SHA-256 (hex) of the whole value. One-shot: no Hash object on every /v1 request. */
export function hashApiKey(value: string): string {
  return hash("sha256", value, "hex");
}

/** What is displayed: the prefix (`ik_` or `ik_test_`) + the first 4 and last 4 characters after it. */
export function apiKeyHint(value: string): string {
  const prefix = API_KEY_PREFIXES[modeOfApiKey(value)];
  const body = value.slice(prefix.length);
  return `${prefix}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export interface MintedApiKey {
  /** Shown once to its creator, never stored. */
  value: string;
  hash: string;
  hint: string;
}

/** A new key with what is stored of it: the one way a key comes into being. */
export function mintApiKey(mode: Mode): MintedApiKey {
  const value = generateApiKey(mode);
  return { value, hash: hashApiKey(value), hint: apiKeyHint(value) };
}
