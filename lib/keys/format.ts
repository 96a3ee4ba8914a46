import { hash } from "node:crypto";
import { crc32 } from "node:zlib";
import { BASE62_ALPHABET, encodeBase62, randomBase62 } from "@/core/base62";

export const API_KEY_PREFIX = "ik_";
const RANDOM_LENGTH = 26;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const BODY = new RegExp(`^[${BASE62_ALPHABET}]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/**
 * What a secret scanner matches (published in docs/security.md): `ik_` and 32 base62
 * characters, not inside a longer word. A match is one of ours only if parseApiKey's checksum holds.
 */
export const API_KEY_PATTERN = new RegExp(`\\b${API_KEY_PREFIX}[${BASE62_ALPHABET}]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}\\b`, "g");

function checksum(random: string): string {
  return encodeBase62(crc32(random), CHECKSUM_LENGTH);
}

/** A new key value: `ik_` + 26 random base62 characters + a 6-character base62 CRC32 of them. */
export function generateApiKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${checksum(random)}`;
}

export type ApiKeyParseResult = { ok: true } | { ok: false; reason: "prefix" | "length" | "alphabet" | "checksum" };

/** Checks a presented value's shape and checksum without any database lookup. */
export function parseApiKey(value: string): ApiKeyParseResult {
  if (!value.startsWith(API_KEY_PREFIX)) return { ok: false, reason: "prefix" };
  if (value.length !== API_KEY_LENGTH) return { ok: false, reason: "length" };
  const body = value.slice(API_KEY_PREFIX.length);
  if (!BODY.test(body)) return { ok: false, reason: "alphabet" };
  const random = body.slice(0, RANDOM_LENGTH);
  if (checksum(random) !== body.slice(RANDOM_LENGTH)) return { ok: false, reason: "checksum" };
  return { ok: true };
}

/** What is stored: the SHA-256 (hex) of the whole value. One-shot: no Hash object on every /v1 request. */
export function hashApiKey(value: string): string {
  return hash("sha256", value, "hex");
}

/** What is displayed: `ik_` + the first 4 and last 4 characters after the prefix. */
export function apiKeyHint(value: string): string {
  const body = value.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export interface MintedApiKey {
  /** Shown once to its creator, never stored. */
  value: string;
  hash: string;
  hint: string;
}

/** A new key with what is stored of it: the one way a key comes into being. */
export function mintApiKey(): MintedApiKey {
  const value = generateApiKey();
  return { value, hash: hashApiKey(value), hint: apiKeyHint(value) };
}
