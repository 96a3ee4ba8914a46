import { sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { WEBHOOK_DELIVERY_STATUS_VALUES, WEBHOOK_FORMAT_VALUES } from "@/core/enums";
import { createdAt, mode } from "./columns";
import { tenant, users } from "./accounts";

/**
 * Where the organization's events are sent. The signing secret has to be readable to sign each
 * delivery, so it is stored sealed under a key derived from AUTH_SECRET (core/sealed-secret.ts,
 * docs/security.md#secrets-at-rest), opened only by the sender's query; the dashboard shows it once,
 * when it is made. After a rotation the previous secret signs too until it ends, as Standard
 * Webhooks allows (a receiver may still hold it).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").notNull(),
    orgId: tenant(),
    /**
     * The address as pages, the history and alerts name it: a standard endpoint's URL, where its
     * deliveries go; a Slack channel's hint ("https://hooks.slack.com/…/…x9Qf"), its URL being a credential.
     */
    url: text("url").notNull(),
    /** A Slack channel's URL, sealed like the secrets: where its messages go. Null for a standard endpoint. */
    sealedUrl: text("sealed_url"),
    description: text("description").notNull().default(""),
    eventTypes: text("event_types").array().notNull(),
    /** It receives the events of live keys and data, or of test ones (docs/features/test-mode.md#webhooks). Slack channels are live. */
    mode: mode(),
    /** Sealed (`v1.…`); a row from before sealing is sealed by the migrations' data step (db/webhook-credentials.ts). */
    signingSecret: text("signing_secret").notNull(),
    /** Sealed too: the secret before the last rotation, signing beside the new one until `previous_secret_ends_at`. */
    previousSigningSecret: text("previous_signing_secret"),
    previousSecretEndsAt: timestamp("previous_secret_ends_at", { withTimezone: true, mode: "date" }),
    enabled: boolean("enabled").notNull().default(true),
    /** Signed events (docs/features/webhooks.md), or every alert as a Slack message (its event types are none). */
    format: text("format", { enum: WEBHOOK_FORMAT_VALUES }).notNull().default("standard"),
    /** Why it is off: a person turned it off, or it failed for 5 days (docs/features/webhooks.md#delivery). */
    disabledReason: text("disabled_reason", { enum: ["manual", "failing"] }),
    /** The first failed delivery since the last one that succeeded; null while it works. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // The id first: a queued delivery finds its endpoint by it; org_id in it for Citus (db/distribution.ts).
    primaryKey({ columns: [t.id, t.orgId] }),
    index("webhook_endpoints_org_idx").on(t.orgId, t.createdAt),
    check("webhook_endpoints_disabled_has_reason", sql`${t.enabled} = (${t.disabledReason} is null)`),
    check("webhook_endpoints_format_known", sql`${t.format} in (${sql.raw(WEBHOOK_FORMAT_VALUES.map((format) => `'${format}'`).join(", "))})`),
  ],
);

/**
 * One event sent to one endpoint: its id is the `webhook-id` every attempt carries, so a receiver
 * dedupes retries and resends. The row is the delivery log's line: attempts so far and the last
 * one's answer; each attempt's own answer is in webhook_delivery_attempts. pg-boss holds the
 * jobs that make them (db/job-queue.ts).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").notNull(),
    orgId: tenant(),
    endpointId: text("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The body as sent: Standard Webhooks' { type, timestamp, data }. */
    payload: jsonb("payload").$type<{ type: string; timestamp: string; data: Record<string, unknown> }>().notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUS_VALUES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    /** The last attempt's HTTP status, or null when it got none (refused address, timeout, connection). */
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms"),
    /** The start of the last answer's body, or what went wrong. */
    responseExcerpt: text("response_excerpt"),
    createdAt: createdAt(),
  },
  (t) => [
    // The id first: the webhook queue's jobs name a delivery by it alone; org_id in it for Citus (db/distribution.ts).
    primaryKey({ columns: [t.id, t.orgId] }),
    foreignKey({ columns: [t.endpointId, t.orgId], foreignColumns: [webhookEndpoints.id, webhookEndpoints.orgId] }).onDelete("cascade"),
    index("webhook_deliveries_endpoint_time_idx").on(t.orgId, t.endpointId, t.createdAt.desc(), t.id.desc()),
    check("webhook_deliveries_status_known", sql`${t.status} in (${sql.raw(WEBHOOK_DELIVERY_STATUS_VALUES.map((status) => `'${status}'`).join(", "))})`),
  ],
);

/**
 * Every attempt of a delivery with its answer, so a receiver's earlier errors can still be read
 * after it recovers (the delivery keeps only the last). Numbered from 1 per delivery, a resend
 * going on from where it was; org_id leads the key as in every tenant table.
 */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    orgId: tenant(),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull(),
    /** The answer's HTTP status, or null when it got none (refused address, timeout, connection). */
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    /** The start of the answer's body, or what went wrong. */
    responseExcerpt: text("response_excerpt").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.deliveryId, t.attempt] }),
    foreignKey({ columns: [t.deliveryId, t.orgId], foreignColumns: [webhookDeliveries.id, webhookDeliveries.orgId] }).onDelete("cascade"),
  ],
);
