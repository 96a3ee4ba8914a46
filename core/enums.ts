/**
 * The values of the database's enums, in display order, without drizzle: the schema builds its
 * pgEnums from them, and client code (forms, tables) can import them without the driver.
 */
export const PLAN_VALUES = ["trial", "solo", "pro", "enterprise"] as const;
export type Plan = (typeof PLAN_VALUES)[number];

/**
 * Which books a key and every business record belong to (docs/features/test-mode.md): the
 * organization's real ones, or test data an integration can be built against.
 */
export const MODE_VALUES = ["live", "test"] as const;
export type Mode = (typeof MODE_VALUES)[number];

/** One organization's records of one mode: what every business query is scoped to. */
export interface Books {
  orgId: string;
  mode: Mode;
}

export const ROLE_VALUES = ["owner", "admin", "member", "guest"] as const;
export type Role = (typeof ROLE_VALUES)[number];

/** Why a person revoked a key (docs/features/api-keys.md#rename-revoke-last-use), in the order the revoke dialog offers them. */
export const PERSON_REVOKE_REASON_VALUES = ["compromised", "no_longer_used", "replaced", "other"] as const;
/** Every reason a key is revoked for: a person's, or a secret scanner's report (docs/security.md#leaked-keys-and-secret-scanning), which no person gives. */
export const REVOKE_REASON_VALUES = [...PERSON_REVOKE_REASON_VALUES, "leaked"] as const;
export type RevokeReason = (typeof REVOKE_REASON_VALUES)[number];

/** The maximum key lifetimes an organization's key policy offers (docs/features/api-keys.md#key-policy), in days. */
export const KEY_MAX_LIFETIME_DAYS = [30, 90, 180, 366] as const;
export type KeyMaxLifetimeDays = (typeof KEY_MAX_LIFETIME_DAYS)[number];

/** An organization's rule for the keys it creates or rolls from now on. */
export interface KeyPolicy {
  /** The longest a new key may live, in days; null for no maximum. */
  maxLifetimeDays: KeyMaxLifetimeDays | null;
  /** New keys must expire. A maximum lifetime implies it. */
  expiryRequired: boolean;
}

/** What a key may do (docs/features/restricted-keys.md): everything, GET only, or what its scopes grant per resource. */
export const KEY_ACCESS_VALUES = ["full", "read_only", "restricted"] as const;
export type KeyAccess = (typeof KEY_ACCESS_VALUES)[number];

/** At most this many addresses or CIDR ranges in a key's IP allowlist. */
export const IP_ALLOWLIST_MAX = 20;

/**
 * The API's resources and the permissions a restricted key can hold on each, lowest
 * first: a permission includes the ones before it (write includes read). One table: the gateway's
 * statement, the create and edit dialogs, the key page and the gateway tests all read it, so a new
 * resource cannot be forgotten by one of them.
 */
export const API_RESOURCES = {
  invoices: { label: "Invoices", noun: "invoices", permissions: ["read", "write"] },
  customers: { label: "Customers", noun: "customers", permissions: ["read", "write"] },
  products: { label: "Products", noun: "products", permissions: ["read", "write"] },
  analytics: { label: "Analytics", noun: "analytics", permissions: ["read"] },
  pdf: { label: "PDF", noun: "PDFs", permissions: ["generate"] },
  usage: { label: "Usage", noun: "usage", permissions: ["read"] },
} as const satisfies Record<string, { label: string; noun: string; permissions: readonly [Permission, ...Permission[]] }>;

export type Permission = "read" | "write" | "generate";
export type ApiResource = keyof typeof API_RESOURCES;
export const API_RESOURCE_NAMES = Object.keys(API_RESOURCES) as ApiResource[];

/** A restricted key's permission on each resource; a resource left out is none. */
export type KeyScopes = { [R in ApiResource]?: (typeof API_RESOURCES)[R]["permissions"][number] };

/** A permission's rank on its resource: 0 is none, and a higher rank includes the lower ones. */
export function permissionRank(resource: ApiResource, permission: Permission | undefined): number {
  return permission ? (API_RESOURCES[resource].permissions as readonly Permission[]).indexOf(permission) + 1 : 0;
}

/** What a key may do and from where (docs/features/restricted-keys.md), as stored on it and kept by a roll. */
export interface KeyRestrictions {
  access: KeyAccess;
  /** Only for a restricted key; empty otherwise. */
  scopes: KeyScopes;
  /** Canonical addresses and CIDR ranges (lib/keys/ip-allowlist.ts); empty: any address. */
  ipAllowlist: string[];
}

/**
 * What an alert is about. Each is raised once per period (lib/alerts/raise.ts): a quota
 * threshold once a month, a key's budget threshold once per key and budget period, a burst of 429
 * once an hour per key, an expiry once per key, a leak (docs/security.md#leaked-keys-and-secret-scanning) once per key.
 */
export const ALERT_KIND_VALUES = [
  "quota_threshold",
  "budget_threshold",
  "rate_limited",
  "key_expiring",
  "key_expired",
  "webhook_disabled",
  "key_leaked",
  "log_stream_backlog_dropped",
] as const;
export type AlertKind = (typeof ALERT_KIND_VALUES)[number];

/** The quota shares (percent) that raise an alert unless the organization chose others. */
export const DEFAULT_QUOTA_ALERT_THRESHOLDS = [80, 90, 100] as const;
/** At most this many quota thresholds per organization. */
export const QUOTA_ALERT_THRESHOLDS_MAX = 5;
/** A key refused with 429 more than this many times in RATE_LIMIT_ALERT_MINUTES raises an alert, unless the organization chose another number. */
export const DEFAULT_RATE_LIMIT_ALERT_THRESHOLD = 10;
export const RATE_LIMIT_ALERT_THRESHOLD_MAX = 100_000;
export const RATE_LIMIT_ALERT_MINUTES = 5;
/** A key expiring within this many days raises an alert. */
export const KEY_EXPIRING_ALERT_DAYS = 7;

/**
 * The events a webhook endpoint can subscribe to, in the order the form lists them,
 * with what each says. "webhook.test" is not among them: "Send test event" sends it to one
 * endpoint whatever it subscribes to.
 */
export const WEBHOOK_EVENT_TYPES = {
  "key.created": "An API key was created.",
  "key.rolled": "An API key was rolled: a new value, the old one ending after an overlap.",
  "key.revoked": "An API key was revoked.",
  "key.expiring": `An API key expires within ${KEY_EXPIRING_ALERT_DAYS} days.`,
  "key.expired": "An API key has expired.",
  "usage.quota_threshold": "The organization's calls this month reached a quota threshold.",
  "key.budget_threshold": "An API key used 80 % or all of its budget for the period.",
  "usage.rate_limited": "A key was refused for its rate limit in a burst.",
  "key.leaked": "An API key was found in public (a secret scanner reported it) and revoked, or, if the organization chose so, only reported.",
} as const;

/** The owner's choice: what a key reported as leaked gets: revoked at once (the default), or an alert only. */
export const LEAKED_KEY_RESPONSE_VALUES = ["revoke", "alert"] as const;
export type LeakedKeyResponse = (typeof LEAKED_KEY_RESPONSE_VALUES)[number];
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_TYPE_VALUES = Object.keys(WEBHOOK_EVENT_TYPES) as [WebhookEventType, ...WebhookEventType[]];
/** The event "Send test event" sends. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** A delivery's state: waiting for (another) attempt, delivered, or given up after 24 hours or with its endpoint. */
export const WEBHOOK_DELIVERY_STATUS_VALUES = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUS_VALUES)[number];

/** An endpoint whose deliveries have failed for this many days is turned off, with an alert. */
export const WEBHOOK_DISABLE_AFTER_FAILING_DAYS = 5;

/** At most this many endpoints per organization. */
export const WEBHOOK_ENDPOINTS_MAX = 10;

/**
 * What an endpoint receives: the events, signed by Standard Webhooks (docs/features/webhooks.md), or each alert as
 * a message for a Slack-compatible incoming webhook (docs/features/notifications.md#slack). Both go through the same durable,
 * retried, logged deliveries.
 */
export const WEBHOOK_FORMAT_VALUES = ["standard", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMAT_VALUES)[number];
/** At most this many Slack channels per organization. */
export const SLACK_CHANNELS_MAX = 5;
