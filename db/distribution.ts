/**
 * How the schema spreads over a sharded PostgreSQL (Citus; docs/operations.md, "Beyond one machine"): every
 * table distributes by org_id, except the reference tables below, copied whole to every node.
 * They are small, and looked up before the organization is known (a key by its hash, an
 * invitation by its token, a session by its id) or belong to a person across organizations.
 * tests/citus-schema.test.ts holds the migrated catalog to Citus's rules for both kinds.
 */
export const DISTRIBUTION_COLUMN = "org_id";

export const REFERENCE_TABLES: readonly string[] = [
  "organizations",
  "users",
  "memberships",
  "api_keys",
  "invitations",
  "sessions",
  "auth_throttle",
  "totp_factors",
  "recovery_codes",
  "passkeys",
  // Unique across organizations: a domain is verified by one (db/schema/sso.ts).
  "sso_domains",
  // Found by its state when the provider sends the browser back, before the organization is known.
  "sso_flows",
  // One cursor per analytics store, across organizations (db/schema/analytics.ts).
  "analytics_exports",
];
