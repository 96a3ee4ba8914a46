import { sql } from "drizzle-orm";
import { bigint, boolean, check, foreignKey, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { NOTICE_KIND_VALUES } from "@/core/notifications";
import { createdAt } from "./columns";
import { tenant, users } from "./accounts";
import { alerts } from "./alerts";

const kindKnown = (column: unknown) => sql`${column} in (${sql.raw(NOTICE_KIND_VALUES.map((kind) => `'${kind}'`).join(", "))})`;

/**
 * What each person chose to get by email in each organization, per kind. A kind without
 * a row has its default (core/notifications.ts).
 */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    orgId: tenant(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTICE_KIND_VALUES }).notNull(),
    email: boolean("email").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId, t.kind] }), check("notification_preferences_kind_known", kindKnown(t.kind))],
);

export const NOTIFICATION_EMAIL_STATUS_VALUES = ["pending", "sent", "failed", "skipped"] as const;

/**
 * Every email the service decided to send a person (docs/features/notifications.md#email), written in the transaction that
 * decided it (an alert raised, a reminder due) with its pg-boss job. `dedupe_key` names what it is
 * about ("alert:42", "expiry:key_…:2026-12-01T00:00:00Z:7"): the unique index sends each once
 * whichever process decides it first. The row is the mail's log: attempts, the last error, when sent.
 */
export const notificationEmails = pgTable(
  "notification_emails",
  {
    id: text("id").notNull(),
    orgId: tenant(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTICE_KIND_VALUES }).notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    alertId: bigint("alert_id", { mode: "number" }),
    apiKeyId: text("api_key_id"),
    /** What a reminder says: the key's expiry and the days before it. */
    details: jsonb("details").$type<Record<string, string | number>>().notNull().default({}),
    status: text("status", { enum: NOTIFICATION_EMAIL_STATUS_VALUES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    // The id first: the mail queue's jobs name an email by it alone; org_id in it for Citus (db/distribution.ts).
    primaryKey({ columns: [t.id, t.orgId] }),
    foreignKey({ columns: [t.alertId, t.orgId], foreignColumns: [alerts.id, alerts.orgId] }).onDelete("cascade"),
    uniqueIndex("notification_emails_once_idx").on(t.orgId, t.userId, t.dedupeKey),
    check("notification_emails_kind_known", kindKnown(t.kind)),
    check("notification_emails_status_known", sql`${t.status} in (${sql.raw(NOTIFICATION_EMAIL_STATUS_VALUES.map((status) => `'${status}'`).join(", "))})`),
  ],
);
