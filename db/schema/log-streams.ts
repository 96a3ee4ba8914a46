import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { LOG_STREAM_KIND_VALUES, type DestinationSettings, type LogStreamSource } from "@/core/log-streams";
import { createdAt, mode, xid8 } from "./columns";
import { tenant, users } from "./accounts";

/**
 * An organization's log streams (docs/features/log-streams.md): where each sends, what it carries,
 * and how far it got. The credentials are sealed (lib/auth/sealed-secret.ts); the cursors say the
 * last event delivered of each source, in the order the events became visible.
 */
export const logStreams = pgTable(
  "log_streams",
  {
    id: text("id").notNull(),
    orgId: tenant(),
    name: text("name").notNull(),
    kind: text("kind", { enum: LOG_STREAM_KIND_VALUES }).notNull(),
    /** Where it sends, without its credentials. */
    settings: jsonb("settings").$type<DestinationSettings>().notNull(),
    /** The credentials as one sealed JSON document. */
    sealedSecrets: text("sealed_secrets").notNull(),
    /** The last characters of the main credential, to tell which one is set. */
    secretHint: text("secret_hint").notNull(),
    sources: text("sources").array().$type<LogStreamSource[]>().notNull(),
    /** Whose requests it carries: the live keys' or the test keys'. */
    mode: mode(),
    pausedAt: timestamp("paused_at", { withTimezone: true, mode: "date" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** The last request-log id delivered (ids are committed in order, db/queries/request-log-writer.ts). */
    requestsAfter: bigint("requests_after", { mode: "number" }).notNull(),
    /** The last activity entry delivered, as (transaction, id). */
    activityAfterTx: xid8("activity_after_tx").notNull(),
    activityAfterId: bigint("activity_after_id", { mode: "number" }).notNull(),
    alertsAfterTx: xid8("alerts_after_tx").notNull(),
    alertsAfterId: bigint("alerts_after_id", { mode: "number" }).notNull(),
    /** The last batch the destination took, and the failures since. */
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true, mode: "date" }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    /** Until when a process has the stream's turn: no other sends its batches meanwhile (docs/features/log-streams.md#delivery). */
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    /** Events dropped undelivered after the backlog's 7 days, in all. */
    droppedEvents: bigint("dropped_events", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    // org_id in it for Citus (db/distribution.ts), as in the other tables of an organization's settings.
    primaryKey({ columns: [t.id, t.orgId] }),
    index("log_streams_org_idx").on(t.orgId, t.createdAt),
    check("log_streams_sources_known", sql`${t.sources} <@ array['requests', 'activity', 'alerts'] and cardinality(${t.sources}) > 0`),
  ],
);
