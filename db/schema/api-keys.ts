import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { IP_ALLOWLIST_MAX, KEY_ACCESS_VALUES, REVOKE_REASON_VALUES, type KeyScopes } from "@/core/enums";
import { BUDGET_PERIOD_VALUES, KEY_BUDGET_MAX, type BudgetPeriod, type KeyBudget } from "@/core/key-budget";
import { createdAt, mode } from "./columns";
import { tenant, users } from "./accounts";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: tenant(),
    name: text("name").notNull(),
    /** Chosen at creation, never changed: which of the organization's books the key reads and writes. */
    mode: mode(),
    /** SHA-256 (hex) of the whole key value; the value itself is never stored. */
    keyHash: text("key_hash").notNull().unique(),
    hint: text("hint").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    /** The client address and route template of the request that set last_used_at. */
    lastUsedIp: text("last_used_ip"),
    lastUsedEndpoint: text("last_used_endpoint"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
    revokeReason: text("revoke_reason", { enum: REVOKE_REASON_VALUES }),
    revokeNote: text("revoke_note"),
    /** The key is refused from this moment on (docs/features/api-keys.md#expiry); null: it never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** The key this one was rolled from (docs/features/api-keys.md#roll); that key ends when its overlap does. */
    replacesKeyId: text("replaces_key_id").references((): AnyPgColumn => apiKeys.id, { onDelete: "set null" }),
    /** Everything, GET only, or what `scopes` grants per resource. */
    access: text("access", { enum: KEY_ACCESS_VALUES }).notNull().default("full"),
    /** A restricted key's permission per resource (core/enums.ts API_RESOURCES); empty for the other kinds. */
    scopes: jsonb("scopes").$type<KeyScopes>().notNull().default({}),
    /** Addresses and CIDR ranges the key may be used from, canonical as lib/keys/ip-allowlist.ts writes them; empty: anywhere. */
    ipAllowlist: text("ip_allowlist")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** At most this many admitted requests per `budget_period` (UTC); null: no budget. */
    budgetLimit: integer("budget_limit"),
    budgetPeriod: text("budget_period", { enum: BUDGET_PERIOD_VALUES }),
  },
  (t) => [
    index("api_keys_org_idx").on(t.orgId, t.createdAt.desc()),
    // A key is rolled once: a second roll of it would leave two replacements.
    uniqueIndex("api_keys_replaces_key_idx").on(t.replacesKeyId),
    check("api_keys_revoke_reason_when_revoked", sql`${t.revokedAt} is not null or (${t.revokeReason} is null and ${t.revokeNote} is null)`),
    check("api_keys_access_known", sql`${t.access} in (${sql.raw(KEY_ACCESS_VALUES.map((access) => `'${access}'`).join(", "))})`),
    check("api_keys_scopes_only_when_restricted", sql`${t.access} = 'restricted' or ${t.scopes} = '{}'::jsonb`),
    // The cast refuses anything PostgreSQL cannot read as an address or range.
    check("api_keys_ip_allowlist_valid", sql`cardinality(${t.ipAllowlist}) <= ${sql.raw(String(IP_ALLOWLIST_MAX))} and ${t.ipAllowlist}::cidr[] is not null`),
    check(
      "api_keys_budget_valid",
      sql`(${t.budgetLimit} is null and ${t.budgetPeriod} is null) or (${t.budgetLimit} between 1 and ${sql.raw(String(KEY_BUDGET_MAX))} and ${t.budgetPeriod} in (${sql.raw(BUDGET_PERIOD_VALUES.map((period) => `'${period}'`).join(", "))}))`,
    ),
    check(
      "api_keys_revoke_reason_known",
      sql`${t.revokeReason} is null or ${t.revokeReason} in (${sql.raw(REVOKE_REASON_VALUES.map((reason) => `'${reason}'`).join(", "))})`,
    ),
  ],
);

/** A key's budget as its two columns hold it (both null: none). */
export function budgetColumns(budget: KeyBudget | null): { budgetLimit: number | null; budgetPeriod: BudgetPeriod | null } {
  return { budgetLimit: budget?.limit ?? null, budgetPeriod: budget?.period ?? null };
}

/** The budget a key's two columns hold, or null; the check constraint sets both or neither. */
export function budgetOfColumns(row: { budgetLimit: number | null; budgetPeriod: BudgetPeriod | null }): KeyBudget | null {
  return row.budgetLimit !== null && row.budgetPeriod !== null ? { limit: row.budgetLimit, period: row.budgetPeriod } : null;
}
