import { randomBase62 } from "./base62";

export type IdPrefix = "usr" | "org" | "key" | "req" | "cus" | "prod" | "in" | "li" | "ses";

/** Opaque, type-prefixed ids in the Stripe style: `cus_4fJ9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
