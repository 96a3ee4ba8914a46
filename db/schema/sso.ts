import { sql } from "drizzle-orm";
import { check, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { roleEnum, tenant, users } from "./accounts";

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
