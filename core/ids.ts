import { randomBase62 } from "./base62";

export type IdPrefix = "usr" | "org" | "key" | "req" | "cus" | "prod" | "in" | "li" | "ses" | "whe" | "msg" | "ivt";

/** Opaque, type-prefixed ids in the Stripe style: `cus_4fJ9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

/** Whether `value` has the shape of an id (demo data's `key_demo_acme_prod` included): a URL with anything else names nothing. */
export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return value.length <= 64 && value.startsWith(`${prefix}_`) && /^[A-Za-z0-9_]+$/.test(value);
}
