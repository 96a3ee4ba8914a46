import { decodeBase62, encodeBase62, randomBase62 } from "./base62";

export type IdPrefix = "usr" | "org" | "key" | "req" | "cus" | "prod" | "in" | "li" | "ses" | "whe" | "msg" | "ivt" | "pky" | "ls" | "lst" | "sso" | "dom";

/** Opaque, type-prefixed ids in the Stripe style: `cus_4fJ9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

/** Whether `value` has the shape of an id (demo data's `key_demo_acme_prod` included): a URL with anything else names nothing. */
export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return value.length <= 64 && value.startsWith(`${prefix}_`) && /^[A-Za-z0-9_]+$/.test(value);
}

// A request id starts with the time its request was received, in milliseconds (8 base62
// characters reach the year 8888), so the id alone finds its row: request_log's primary key is
// (org_id, created_at, id), and the id's time is the row's created_at. No index on request_id is
// written per request. The 12 characters after it are random (71 bits).
const REQUEST_TIME_CHARS = 8;
const REQUEST_RANDOM_CHARS = 12;

/** `req_` + the time `atMs` + randomness; `random` is the seed's fixed generator. */
export function newRequestId(atMs: number, random: string = randomBase62(REQUEST_RANDOM_CHARS)): string {
  return `req_${encodeBase62(atMs, REQUEST_TIME_CHARS)}${random.slice(0, REQUEST_RANDOM_CHARS)}`;
}

/** The time a request id was issued at, or null when `id` is not one. */
export function requestIdTime(id: string): Date | null {
  if (id.length !== 4 + REQUEST_TIME_CHARS + REQUEST_RANDOM_CHARS || !looksLikeId("req", id) || id.includes("_", 4)) return null;
  const atMs = decodeBase62(id.slice(4, 4 + REQUEST_TIME_CHARS));
  return atMs === null ? null : new Date(atMs);
}
