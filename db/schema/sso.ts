import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { organizations, roleEnum, sessions, tenant, users } from "./accounts";

/**
 * An organization's OpenID Connect provider (docs/features/sso.md#the-connection), at most one:
 * org_id alone is its key, which Citus also asks of a distributed table (db/distribution.ts). The
 * client secret is sealed (core/sealed-secret.ts); only its last characters are shown.
 */
export const ssoConnections = pgTable(
  "sso_connections",
  {
    orgId: tenant().primaryKey(),
    /** Names the connection in the activity history; a connection saved again keeps it. */
    id: text("id").notNull(),
    /** The issuer as the provider's discovery document gives it, which its ID tokens carry. */
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    sealedClientSecret: text("sealed_client_secret").notNull(),
    secretHint: text("secret_hint").notNull(),
    /** The role of a person the provider signs in for the first time. */
    defaultRole: roleEnum("default_role").notNull().default("member"),
    /** Members and admins reach the organization only from a session its provider made; owners keep their password. */
    requireSso: boolean("require_sso").notNull().default(false),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [check("sso_connections_default_role_not_owner", sql`${t.defaultRole} <> 'owner'`)],
);

/**
 * The email domains an organization claims (docs/features/sso.md#domains), each proved by a DNS
 * TXT record holding its token. Several organizations may claim a domain; one may verify it.
 *
 * That "one" is a unique index on the domain across organizations, which Citus allows only on a
 * reference table (a distributed table's unique keys must include org_id): so this is one, as
 * users (unique email) and organizations (unique slug) are (db/distribution.ts). It fits what a
 * reference table is for: a few rows an organization, and looked up before the organization is
 * known, when a person's email domain finds their organization's provider at sign-in.
 */
export const ssoDomains = pgTable(
  "sso_domains",
  {
    id: text("id").notNull(),
    orgId: tenant(),
    /** Lower case, in its ASCII (punycode) form, without a trailing dot. */
    domain: text("domain").notNull(),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.orgId] }),
    uniqueIndex("sso_domains_org_domain_idx").on(t.orgId, t.domain),
    // Of two organizations verifying one domain at once, the second meets this index.
    uniqueIndex("sso_domains_verified_once_idx")
      .on(t.domain)
      .where(sql`${t.verifiedAt} is not null`),
    check("sso_domains_domain_lower_case", sql`${t.domain} = lower(${t.domain})`),
  ],
);

/**
 * A sign-in through an organization's provider under way (docs/features/sso.md#signing-in): what
 * the browser was sent to the provider with, kept here until it comes back, for 10 minutes at
 * most. `state` is its key and the browser's cookie holds it too; a callback claims the row once
 * (`completed_at`), so a code or state sent twice finds nothing. A finished sign-in leaves a
 * one-time ticket (its SHA-256 here) that next-auth's "sso" provider exchanges for the session.
 *
 * A reference table (db/distribution.ts): the callback finds it by `state` before it knows the
 * organization.
 */
export const ssoFlows = pgTable(
  "sso_flows",
  {
    state: text("state").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** `sign_in` makes a session; `confirm` is sudo mode asked of the provider for the session that started it. */
    purpose: text("purpose", { enum: ["sign_in", "confirm"] }).notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    /** A path on the dashboard, checked when the flow started. */
    returnTo: text("return_to").notNull(),
    /** For `confirm`: the session asking, and its person. */
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    ticketHash: text("ticket_hash"),
  },
  (t) => [
    uniqueIndex("sso_flows_ticket_idx").on(t.ticketHash),
    index("sso_flows_created_idx").on(t.createdAt),
    check("sso_flows_confirm_names_session", sql`${t.purpose} = 'sign_in' or (${t.sessionId} is not null and ${t.userId} is not null)`),
  ],
);

/**
 * Who a provider's subject is here (docs/features/sso.md#who-signs-in): the ID token's `iss` and
 * `sub` name a person for good, where an email may change hands. Made at a person's first sign-in
 * through the organization's provider; one person has one identity an organization.
 */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    orgId: tenant(),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.issuer, t.subject] }), uniqueIndex("sso_identities_org_user_idx").on(t.orgId, t.userId)],
);
