/**
 * The values of the database's enums, in display order, without drizzle: the schema builds its
 * pgEnums from them, and client code (forms, tables) can import them without the driver.
 */
export const PLAN_VALUES = ["trial", "solo", "pro", "enterprise"] as const;
export type Plan = (typeof PLAN_VALUES)[number];

export const ROLE_VALUES = ["owner", "admin", "member", "guest"] as const;
export type Role = (typeof ROLE_VALUES)[number];

/** Why a person revoked a key (SPEC §7), in the order the revoke dialog offers them. */
export const REVOKE_REASON_VALUES = ["compromised", "no_longer_used", "replaced", "other"] as const;
export type RevokeReason = (typeof REVOKE_REASON_VALUES)[number];

/** The maximum key lifetimes an organization's key policy offers (SPEC §7), in days. */
export const KEY_MAX_LIFETIME_DAYS = [30, 90, 180, 366] as const;
export type KeyMaxLifetimeDays = (typeof KEY_MAX_LIFETIME_DAYS)[number];

/** SPEC §7: an organization's rule for the keys it creates or rolls from now on. */
export interface KeyPolicy {
  /** The longest a new key may live, in days; null for no maximum. */
  maxLifetimeDays: KeyMaxLifetimeDays | null;
  /** New keys must expire. A maximum lifetime implies it. */
  expiryRequired: boolean;
}
