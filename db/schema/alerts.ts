import { sql } from "drizzle-orm";
import { bigserial, bigint, check, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { ALERT_KIND_VALUES } from "@/core/enums";
import { createdAt, writtenBy } from "./columns";
import { tenant, users } from "./accounts";
import { apiKeys } from "./api-keys";

/**
 * What the organization should know about (lib/alerts/raise.ts raises them). `period` makes an
 * alert once per period whichever process sees it first: "2026-11:80" for a quota threshold in a
 * month, the key and the hour for a burst of 429, the key and its expiry for an expiry.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    orgId: tenant(),
    kind: text("kind", { enum: ALERT_KIND_VALUES }).notNull(),
    period: text("period").notNull(),
    /** The key it is about, if any. */
    apiKeyId: text("api_key_id").references((): AnyPgColumn => apiKeys.id, { onDelete: "cascade" }),
    /** What the alert says, as figures: the threshold and calls, the refusals, the expiry. */
    details: jsonb("details").$type<Record<string, string | number>>().notNull(),
    createdAt: createdAt(),
    tx: writtenBy(),
  },
  (t) => [
    // The id first: rows are also found by it alone (a Slack delivery names its alert); org_id in it for Citus (db/distribution.ts).
    primaryKey({ columns: [t.id, t.orgId] }),
    uniqueIndex("alerts_once_per_period_idx").on(t.orgId, t.kind, t.period),
    index("alerts_org_time_idx").on(t.orgId, t.createdAt.desc(), t.id.desc()),
    // The log streams' cursor: the organization's alerts in the order they became visible.
    index("alerts_org_tx_idx").on(t.orgId, t.tx, t.id),
    check("alerts_kind_known", sql`${t.kind} in (${sql.raw(ALERT_KIND_VALUES.map((kind) => `'${kind}'`).join(", "))})`),
  ],
);

/** Which alerts each person has read (the bell's unread count is per person). */
export const alertReads = pgTable(
  "alert_reads",
  {
    orgId: tenant(),
    alertId: bigint("alert_id", { mode: "number" }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.userId, t.alertId] }),
    foreignKey({ columns: [t.alertId, t.orgId], foreignColumns: [alerts.id, alerts.orgId] }).onDelete("cascade"),
  ],
);
