import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import {
  DEFAULT_QUOTA_ALERT_THRESHOLDS,
  DEFAULT_RATE_LIMIT_ALERT_THRESHOLD,
  QUOTA_ALERT_THRESHOLDS_MAX,
  RATE_LIMIT_ALERT_THRESHOLD_MAX,
  KEY_MAX_LIFETIME_DAYS,
  LEAKED_KEY_RESPONSE_VALUES,
  PLAN_VALUES,
  ROLE_VALUES,
  type KeyMaxLifetimeDays,
} from "@/core/enums";
import { createdAt } from "./columns";

// Who signs in and where: people, organizations and their members, invitations, sessions, sign-in throttling.

export const planEnum = pgEnum("plan", PLAN_VALUES);
export const roleEnum = pgEnum("role", ROLE_VALUES);

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  /** Null for a person who joined through their organization's identity provider and never set one (docs/features/sso.md). */
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
  /** Shown on the Members page; set when a session starts. */
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, mode: "date" }),
});

/** A row of one person's, deleted with them. */
const personRef = () =>
  text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

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
    /** Key policy (docs/features/api-keys.md#key-policy): the longest a new key may live, in days; null for no maximum. */
    keyMaxLifetimeDays: integer("key_max_lifetime_days").$type<KeyMaxLifetimeDays>(),
    /** Key policy (docs/features/api-keys.md#key-policy): new keys must expire. */
    keyExpiryRequired: boolean("key_expiry_required").notNull().default(false),
    /** Alerts (docs/features/alerts.md): the shares of the monthly quota, in percent ascending, whose crossing raises an alert. */
    quotaAlertThresholds: integer("quota_alert_thresholds")
      .array()
      .notNull()
      .default(sql.raw(`'{${DEFAULT_QUOTA_ALERT_THRESHOLDS.join(",")}}'::integer[]`)),
    /** Alerts (docs/features/alerts.md): more 429 refusals of one key than this within five minutes raise an alert. */
    rateLimitAlertThreshold: integer("rate_limit_alert_threshold").notNull().default(DEFAULT_RATE_LIMIT_ALERT_THRESHOLD),
    /** Set by an owner: every member needs two-factor sign-in to reach anything of the organization. */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    /** Set by an owner: what a key a secret scanner reports gets: revoked at once, or an alert only. */
    leakedKeyResponse: text("leaked_key_response", { enum: LEAKED_KEY_RESPONSE_VALUES }).notNull().default("revoke"),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "organizations_key_max_lifetime_known",
      sql`${t.keyMaxLifetimeDays} is null or ${t.keyMaxLifetimeDays} in (${sql.raw(KEY_MAX_LIFETIME_DAYS.join(", "))})`,
    ),
    check(
      "organizations_quota_alert_thresholds_valid",
      sql`cardinality(${t.quotaAlertThresholds}) <= ${sql.raw(String(QUOTA_ALERT_THRESHOLDS_MAX))} and 1 <= all(${t.quotaAlertThresholds}) and 100 >= all(${t.quotaAlertThresholds})`,
    ),
    check(
      "organizations_leaked_key_response_known",
      sql`${t.leakedKeyResponse} in (${sql.raw(LEAKED_KEY_RESPONSE_VALUES.map((value) => `'${value}'`).join(", "))})`,
    ),
    check("organizations_rate_limit_alert_threshold_valid", sql`${t.rateLimitAlertThreshold} between 1 and ${sql.raw(String(RATE_LIMIT_ALERT_THRESHOLD_MAX))}`),
  ],
);

/** A tenant row's organization, deleted with it; org_id leads the row's keys (docs/operations.md#beyond-one-machine). */
export const tenant = () =>
  text("org_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });

export const memberships = pgTable(
  "memberships",
  {
    orgId: tenant(),
    userId: personRef(),
    role: roleEnum("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/**
 * An invitation to join with a role, by a single-use link valid 7 days that only the
 * invited email can accept. The link's token is stored hashed, like a key; at most one open
 * invitation per organization and email (a new one replaces it).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    orgId: tenant(),
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
    uniqueIndex("invitations_open_email_idx")
      .on(t.orgId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("invitations_org_time_idx").on(t.orgId, t.createdAt),
    check("invitations_closed_once", sql`${t.acceptedAt} is null or ${t.revokedAt} is null`),
  ],
);

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
    userId: personRef(),
    createdAt: createdAt(),
    /** Updated at most once an hour; the session ends after SESSION_IDLE_SECONDS without use. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    /**
     * Signed in with the password of a person who has a second factor, which has not
     * passed yet. Such a session reaches the second-factor page and nothing else.
     */
    secondFactorPending: boolean("second_factor_pending").notNull().default(false),
    /** When the person last proved who they are in this session (password or second factor): sudo mode's clock. */
    authenticatedAt: timestamp("authenticated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * The WebAuthn challenge this session's browser was given last (adding a passkey, or signing
     * with one), until it is answered or WEBAUTHN_CHALLENGE_SECONDS pass: taken once, so an answer
     * never works twice.
     */
    webauthnChallenge: text("webauthn_challenge"),
    webauthnChallengeAt: timestamp("webauthn_challenge_at", { withTimezone: true, mode: "date" }),
    /**
     * The organization whose identity provider made this session (docs/features/sso.md), null for
     * a password sign-in: an organization that requires single sign-on lets its members and admins
     * in from such a session only.
     */
    ssoOrgId: text("sso_org_id").references(() => organizations.id, { onDelete: "cascade" }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** How long a WebAuthn challenge can be answered: the ceremony's own timeout, with a margin. */
export const WEBAUTHN_CHALLENGE_SECONDS = 5 * 60;

/**
 * A person's passkeys (WebAuthn credentials) as second factors. Only the public key is
 * kept; the private key never leaves the person's device. `sign_count` is the authenticator's
 * counter, which a cloned key would repeat.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: personRef(),
    /** The credential id the authenticator chose, base64url: how a signature names its key. */
    credentialId: text("credential_id").notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * A person's authenticator app (TOTP). The shared secret is sealed with a key derived
 * from AUTH_SECRET (core/sealed-secret.ts), so a copy of the database alone does not give it
 * away. Until `confirmed_at` it is a setup in progress, which signs no one in.
 */
export const totpFactors = pgTable("totp_factors", {
  userId: personRef().primaryKey(),
  sealedSecret: text("sealed_secret").notNull(),
  createdAt: createdAt(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
  /** The last 30-second step a code passed for: a code of that step or an earlier one is refused, so none works twice. */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
});

/** Single-use recovery codes, SHA-256 hashed like keys (each has 50 random bits). Renewing replaces them all. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    userId: personRef(),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
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

/**
 * The live tails open in the dashboard (docs/features/live-tail.md), at most LIVE_STREAMS_PER_USER per user across
 * every server process. A stream touches its row while it runs; a row not touched for a while is
 * a stream whose process died, and no longer counts.
 */
export const liveTailStreams = pgTable(
  "live_tail_streams",
  {
    id: text("id").notNull(),
    userId: personRef(),
    orgId: text("org_id").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  // The id first: a stream touches and ends its own row by it; org_id in it for Citus (db/distribution.ts).
  (t) => [primaryKey({ columns: [t.id, t.orgId] }), index("live_tail_streams_user_idx").on(t.userId)],
);
