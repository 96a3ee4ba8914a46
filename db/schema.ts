import { sql } from "drizzle-orm";
import { ACTIVITY_TARGET_TYPES } from "./activity";
import { ALERT_KIND_VALUES, WEBHOOK_DELIVERY_STATUS_VALUES, DEFAULT_QUOTA_ALERT_THRESHOLDS, DEFAULT_RATE_LIMIT_ALERT_THRESHOLD, IP_ALLOWLIST_MAX, KEY_ACCESS_VALUES, QUOTA_ALERT_THRESHOLDS_MAX, RATE_LIMIT_ALERT_THRESHOLD_MAX, KEY_MAX_LIFETIME_DAYS, PLAN_VALUES, REVOKE_REASON_VALUES, ROLE_VALUES, type KeyMaxLifetimeDays, type KeyScopes } from "./enums";
import {
  bigserial,
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const planEnum = pgEnum("plan", PLAN_VALUES);
export const roleEnum = pgEnum("role", ROLE_VALUES);

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
  /** SPEC §12: shown on the Members page; set when a session starts. */
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, mode: "date" }),
});

export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    // A new organization starts on the trial plan.
    plan: planEnum("plan").notNull().default("trial"),
    /** Enterprise only: requests per minute per key; null means the default of 60. */
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    planChangedAt: timestamp("plan_changed_at", { withTimezone: true, mode: "date" }),
    planChangedBy: text("plan_changed_by").references(() => users.id, { onDelete: "set null" }),
    /** Key policy (SPEC §7): the longest a new key may live, in days; null for no maximum. */
    keyMaxLifetimeDays: integer("key_max_lifetime_days").$type<KeyMaxLifetimeDays>(),
    /** Key policy (SPEC §7): new keys must expire. */
    keyExpiryRequired: boolean("key_expiry_required").notNull().default(false),
    /** Alerts (SPEC §10): the shares of the monthly quota, in percent ascending, whose crossing raises an alert. */
    quotaAlertThresholds: integer("quota_alert_thresholds")
      .array()
      .notNull()
      .default(sql.raw(`'{${DEFAULT_QUOTA_ALERT_THRESHOLDS.join(",")}}'::integer[]`)),
    /** Alerts (SPEC §10): more 429 refusals of one key than this within five minutes raise an alert. */
    rateLimitAlertThreshold: integer("rate_limit_alert_threshold").notNull().default(DEFAULT_RATE_LIMIT_ALERT_THRESHOLD),
    createdAt: createdAt(),
  },
  (t) => [
    check("organizations_key_max_lifetime_known", sql`${t.keyMaxLifetimeDays} is null or ${t.keyMaxLifetimeDays} in (${sql.raw(KEY_MAX_LIFETIME_DAYS.join(", "))})`),
    check(
      "organizations_quota_alert_thresholds_valid",
      sql`cardinality(${t.quotaAlertThresholds}) <= ${sql.raw(String(QUOTA_ALERT_THRESHOLDS_MAX))} and 1 <= all(${t.quotaAlertThresholds}) and 100 >= all(${t.quotaAlertThresholds})`,
    ),
    check("organizations_rate_limit_alert_threshold_valid", sql`${t.rateLimitAlertThreshold} between 1 and ${sql.raw(String(RATE_LIMIT_ALERT_THRESHOLD_MAX))}`),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: roleEnum("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/**
 * SPEC §12: an invitation to join with a role, by a single-use link valid 7 days that only the
 * invited email can accept. The link's token is stored hashed, like a key; at most one open
 * invitation per organization and email (a new one replaces it).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lower case, as accounts' emails are. */
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("invitations_open_email_idx").on(t.orgId, t.email).where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("invitations_org_time_idx").on(t.orgId, t.createdAt),
    check("invitations_closed_once", sql`${t.acceptedAt} is null or ${t.revokedAt} is null`),
  ],
);

/**
 * Activity history (SPEC §8): every change by a person or by the system, written in the same
 * transaction as the change (lib/action.ts writes it for every dashboard mutation). The target's
 * name is kept as it was, so an entry still reads well after the key is renamed.
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** "user" entries name their actor; "system" ones (expiries) have none. */
    actorKind: text("actor_kind", { enum: ["user", "system"] }).notNull().default("user"),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type", { enum: ACTIVITY_TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    targetName: text("target_name").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    check("activity_log_system_has_no_user", sql`${t.actorKind} = 'user' or ${t.actorUserId} is null`),
    index("activity_log_org_time_idx").on(t.orgId, t.createdAt, t.id),
    index("activity_log_org_target_time_idx").on(t.orgId, t.targetId, t.createdAt, t.id),
    // The system records a key's expiry once, whichever process sees it first.
    uniqueIndex("activity_log_key_expired_once_idx").on(t.orgId, t.targetId).where(sql`${t.action} = 'api_key.expired'`),
  ],
);

/**
 * SPEC §10: what the organization should know about (db/alerts.ts raises them). `period` makes an
 * alert once per period whichever process sees it first: "2026-11:80" for a quota threshold in a
 * month, the key and the hour for a burst of 429, the key and its expiry for an expiry.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ALERT_KIND_VALUES }).notNull(),
    period: text("period").notNull(),
    /** The key it is about, if any. */
    apiKeyId: text("api_key_id").references((): AnyPgColumn => apiKeys.id, { onDelete: "cascade" }),
    /** What the alert says, as figures: the threshold and calls, the refusals, the expiry. */
    details: jsonb("details").$type<Record<string, string | number>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alerts_once_per_period_idx").on(t.orgId, t.kind, t.period),
    index("alerts_org_time_idx").on(t.orgId, t.createdAt.desc(), t.id.desc()),
    check("alerts_kind_known", sql`${t.kind} in (${sql.raw(ALERT_KIND_VALUES.map((kind) => `'${kind}'`).join(", "))})`),
  ],
);

/**
 * SPEC §10: where the organization's events are sent. The signing secret has to be readable to
 * sign each delivery; no query returns it (db/queries/webhooks.ts), and the dashboard shows it
 * once, when it is made. After a rotation the previous secret signs too until it ends, as
 * Standard Webhooks allows (a receiver may still hold it).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: text("event_types").array().notNull(),
    signingSecret: text("signing_secret").notNull(),
    previousSigningSecret: text("previous_signing_secret"),
    previousSecretEndsAt: timestamp("previous_secret_ends_at", { withTimezone: true, mode: "date" }),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it is off: a person turned it off, or it failed for 5 days (SPEC §10). */
    disabledReason: text("disabled_reason", { enum: ["manual", "failing"] }),
    /** The first failed delivery since the last one that succeeded; null while it works. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_endpoints_org_idx").on(t.orgId, t.createdAt),
    check("webhook_endpoints_disabled_has_reason", sql`${t.enabled} = (${t.disabledReason} is null)`),
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
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
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
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull(),
    /** The answer's HTTP status, or null when it got none (refused address, timeout, connection). */
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    /** The start of the answer's body, or what went wrong. */
    responseExcerpt: text("response_excerpt").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.deliveryId, t.attempt] })],
);

/** Which alerts each person has read (the bell's unread count is per person). */
export const alertReads = pgTable(
  "alert_reads",
  {
    alertId: bigint("alert_id", { mode: "number" })
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.alertId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
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
    /** The key is refused from this moment on (SPEC §7); null: it never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** The key this one was rolled from (SPEC §7); that key ends when its overlap does. */
    replacesKeyId: text("replaces_key_id").references((): AnyPgColumn => apiKeys.id, { onDelete: "set null" }),
    /** SPEC §9: everything, GET only, or what `scopes` grants per resource. */
    access: text("access", { enum: KEY_ACCESS_VALUES }).notNull().default("full"),
    /** A restricted key's permission per resource (db/enums.ts API_RESOURCES); empty for the other kinds. */
    scopes: jsonb("scopes").$type<KeyScopes>().notNull().default({}),
    /** Addresses and CIDR ranges the key may be used from, canonical as lib/ip-allowlist.ts writes them; empty: anywhere. */
    ipAllowlist: text("ip_allowlist").array().notNull().default(sql`'{}'::text[]`),
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
    check("api_keys_revoke_reason_known", sql`${t.revokeReason} is null or ${t.revokeReason} in (${sql.raw(REVOKE_REASON_VALUES.map((reason) => `'${reason}'`).join(", "))})`),
  ],
);

/**
 * One row per /v1 request whose key maps to an organization. On PostgreSQL (and PGlite) the
 * migration makes this a table partitioned by month on created_at; see db/partitions.ts.
 */
export const requestLog = pgTable(
  "request_log",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    orgId: text("org_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    requestId: text("request_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** Route template with method, e.g. "GET /v1/invoices/{id}". */
    endpoint: text("endpoint").notNull(),
    status: smallint("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** The API's error code of a refused request (lib/api/errors.ts), null for a success. */
    errorCode: text("error_code"),
    createdAt: createdAt(),
  },
  (t) => [
    // org_id leads every key, so the table can be distributed by it (SPEC §6).
    primaryKey({ columns: [t.orgId, t.createdAt, t.id] }),
    // The unfiltered log, newest first, is the primary key read backwards; a key's own requests
    // (its page, the key filter) are the first index. Every other filter combination is read either
    // in time order or, when its matches are sparse, one (key, endpoint, status) at a time on the
    // second index (db/queries/audit-log.ts): two indexes serve every combination the dashboard
    // offers, where one index per filter left sparse combinations walking millions of entries.
    // Times ascend in both: read backwards, they give ORDER BY created_at DESC (NULLS FIRST, its
    // default), which a "DESC NULLS LAST" index cannot give, so pages were sorted instead of read.
    index("request_log_org_key_time_idx").on(t.orgId, t.apiKeyId, t.createdAt, t.id),
    index("request_log_org_combination_time_idx").on(t.orgId, t.apiKeyId, t.endpoint, t.status, t.createdAt, t.id),
  ],
);

/** Daily counts per key, endpoint and status, kept in step with request_log as rows are written. */
export const requestDailyRollup = pgTable(
  "request_daily_rollup",
  {
    orgId: text("org_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    endpoint: text("endpoint").notNull(),
    status: smallint("status").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.apiKeyId, t.day, t.endpoint, t.status] }),
    index("request_daily_rollup_org_day_idx").on(t.orgId, t.day),
  ],
);

/** Fixed one-minute windows per key; the row lock makes the count exact across processes. */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    orgId: text("org_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.apiKeyId, t.windowStart] })],
);

/** How long an Idempotency-Key and its response are kept (SPEC §11: Stripe's 24 hours). */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** Raw bytes: a stored response is replayed exactly as it was sent, JSON or PDF. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * POST requests sent with an Idempotency-Key (SPEC §11), per organization and key, for 24 hours:
 * the request's hash, and once it has finished, the response to replay. A row without a response
 * is a request still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    /** SHA-256 of the method, the path with its query, and the body. */
    requestHash: text("request_hash").notNull(),
    createdAt: createdAt(),
    responseStatus: smallint("response_status"),
    /** The headers that describe the body: Content-Type, Content-Disposition. */
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: bytea("response_body"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Calls counted against the monthly quota, per organization and UTC month (first day), spread
 * over up to QUOTA_SHARDS rows so concurrent requests of one organization do not queue on one row
 * lock. Each shard accepts calls while `count < cap`, and the caps of a month sum to the quota, so
 * the total stays exact (db/monthly-usage.ts). Shard -1 holds calls beyond the quota
 * carried over from a plan change; its cap is 0. Plans without a quota write no rows.
 */
export const monthlyUsage = pgTable(
  "monthly_usage",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull().default(0),
    count: integer("count").notNull(),
    cap: integer("cap").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month, t.shard] })],
);

/**
 * Sign-in and sign-up throttling: one fixed window per subject ("signin-email:<address>",
 * "signin-ip:<address>", "signup-ip:<address>"). An attempt is counted in `attempts` before any
 * work, under the row lock of one upsert, so concurrent attempts cannot pass the limit.
 */
export const authThrottle = pgTable("auth_throttle", {
  subject: text("subject").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
  /** Attempts counted in this window: those still being checked plus the failed ones. */
  attempts: integer("attempts").notNull(),
  /** Attempts known to have failed, which a success of the same subject forgets. */
  failures: integer("failures").notNull().default(0),
});

/** A session ends after 14 days without use; the cookie's own expiry slides the same way. */
export const SESSION_IDLE_SECONDS = 60 * 60 * 24 * 14;

/**
 * Dashboard sessions. The session cookie (a JWT) names one of these rows; every server-side read
 * of the signed-in user checks the row, so deleting it ends the session at once.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Updated at most once an hour; the session ends after SESSION_IDLE_SECONDS without use. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);


// ── Invoicing (/v1) ────────────────────────────────────────────────────────────────────────────
// Every table is keyed by (org_id, id) and references others by (org_id, …): the database itself
// refuses a row that points into another organization, and the schema distributes by org_id.

const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const tenant = () =>
  text("org_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });
/** Money: integer minor units of the row's ISO 4217 currency, never beyond Number.MAX_SAFE_INTEGER. */
const money = (name: string) => bigint(name, { mode: "number" }).notNull();

export interface PostalAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

export interface CustomerDetails {
  name: string;
  email: string | null;
  phone: string | null;
  address: PostalAddress | null;
  tax_id: string | null;
}

export const customers = pgTable(
  "customers",
  {
    orgId: tenant(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    address: jsonb("address").$type<PostalAddress>(),
    taxId: text("tax_id"),
    currency: text("currency"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleted customers stay for the invoices that name them; the API no longer finds them. */
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), index("customers_org_created_idx").on(t.orgId, t.createdAt.desc(), t.id.desc())],
);

export const products = pgTable(
  "products",
  {
    orgId: tenant(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    sku: text("sku"),
    unitAmount: money("unit_amount"),
    currency: text("currency").notNull(),
    /** Percent × 10,000 (8.875 % is 88,750), so rates with four decimals stay exact. */
    taxRatePpm: integer("tax_rate_ppm").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** Null: stock not tracked. */
    stockQuantity: integer("stock_quantity"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    uniqueIndex("products_org_sku_idx").on(t.orgId, t.sku),
    index("products_org_created_idx").on(t.orgId, t.createdAt.desc(), t.id.desc()),
    check("products_stock_not_negative", sql`${t.stockQuantity} >= 0`),
  ],
);

export const invoiceStatusEnum = pgEnum("invoice_status", ["draft", "open", "paid", "void"]);

export const invoices = pgTable(
  "invoices",
  {
    orgId: tenant(),
    id: text("id").notNull(),
    customerId: text("customer_id").notNull(),
    /** "INV-000123", assigned at finalization from invoice_counters. */
    number: text("number"),
    status: invoiceStatusEnum("status").notNull().default("draft"),
    currency: text("currency").notNull(),
    /** The customer as billed, frozen at finalization; drafts show the customer as it is. */
    customerDetails: jsonb("customer_details").$type<CustomerDetails>(),
    notes: text("notes"),
    issueDate: date("issue_date", { mode: "string" }),
    dueDate: date("due_date", { mode: "string" }),
    subtotal: money("subtotal"),
    tax: money("tax"),
    total: money("total"),
    finalizedAt: timestamp("finalized_at", { withTimezone: true, mode: "date" }),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    voidedAt: timestamp("voided_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId, t.customerId], foreignColumns: [customers.orgId, customers.id] }),
    uniqueIndex("invoices_org_number_idx").on(t.orgId, t.number),
    index("invoices_org_created_idx").on(t.orgId, t.createdAt.desc(), t.id.desc()),
    index("invoices_org_customer_status_idx").on(t.orgId, t.customerId, t.status),
    index("invoices_org_status_due_idx").on(t.orgId, t.status, t.dueDate),
    index("invoices_org_paid_idx").on(t.orgId, t.paidAt),
  ],
);

export const invoiceLineItems = pgTable(
  "invoice_line_items",
  {
    orgId: tenant(),
    id: text("id").notNull(),
    invoiceId: text("invoice_id").notNull(),
    position: integer("position").notNull(),
    productId: text("product_id"),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitAmount: money("unit_amount"),
    taxRatePpm: integer("tax_rate_ppm").notNull(),
    amount: money("amount"),
    tax: money("tax"),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId, t.invoiceId], foreignColumns: [invoices.orgId, invoices.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.orgId, t.productId], foreignColumns: [products.orgId, products.id] }),
    index("invoice_line_items_org_invoice_idx").on(t.orgId, t.invoiceId, t.position),
  ],
);

/** The last invoice number of each organization; its row lock serializes finalizations. */
export const invoiceCounters = pgTable("invoice_counters", {
  orgId: tenant().primaryKey(),
  lastNumber: integer("last_number").notNull(),
});

export type InvoiceStatus = (typeof invoiceStatusEnum.enumValues)[number];
