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
