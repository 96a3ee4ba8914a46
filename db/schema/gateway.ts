import { bigserial, bigint, boolean, customType, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, mode } from "./columns";
import { tenant } from "./accounts";

// What the /v1 gateway writes per request: the log and its daily rollup, rate-limit windows,
// idempotency keys and the monthly usage counted against the quota.

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
    /** The W3C trace id the request belongs to (docs/operations.md#traces): 16 bytes as a uuid rather than 33 as hex text. */
    traceId: uuid("trace_id"),
  },
  (t) => [
    // org_id leads every key, so the table can be distributed by it (docs/operations.md#beyond-one-machine).
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
    // The log in the order its rows were committed (ids are given under a lock held to the commit,
    // db/queries/request-log-writer.ts): the live tail's cursor. Appended at each organization's end.
    index("request_log_org_id_idx").on(t.orgId, t.id),
    // The log across organizations in commit order, for its export to an analytics store
    // (docs/features/analytics-store.md): ids grow with the table's pages, so a block range index
    // finds the rows after the export's cursor for the cost of a few summary tuples per partition.
    index("request_log_id_brin").using("brin", t.id),
  ],
);

/**
 * What a request's details page shows beyond its audit row (docs/features/audit-log.md#request-details), for 4xx and 5xx answers
 * and requests with an Idempotency-Key: written with the row, in the same statement. Partitioned
 * by UTC day, and each day dropped whole after DETAIL_RETENTION_DAYS (db/partitions.ts). The
 * request is found by its row's time and id, which its request id carries (core/ids.ts).
 */
export const requestDetails = pgTable(
  "request_detail",
  {
    orgId: text("org_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    requestId: text("request_id").notNull(),
    idempotencyKey: text("idempotency_key"),
    /** Whether the answer was the replay of an earlier one with the same Idempotency-Key. */
    replayed: boolean("replayed").notNull().default(false),
    errorMessage: text("error_message"),
    /** Cut at 8 KB, credentials removed (lib/api/request-capture.ts); the sizes are the whole bodies', null when unknown. */
    requestBody: text("request_body"),
    requestBodyBytes: integer("request_body_bytes"),
    responseBody: text("response_body"),
    responseBodyBytes: integer("response_body_bytes"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.createdAt, t.requestId] })],
);

/**
 * What every rollup row holds for its key, endpoint, status and period: the count, and the
 * latency histogram of those requests as two parallel arrays, bucket numbers ascending and their
 * counts. Buckets are log-spaced for a relative error of at most 2 % (latency_bucket() in
 * migration 0019, core/latency-histogram.ts), so histograms of any rows merge by adding counts
 * per bucket (latency_merge()).
 */
const rollupMeasures = () => ({
  count: bigint("count", { mode: "number" }).notNull().default(0),
  latencyBuckets: smallint("latency_buckets")
    .array()
    .notNull()
    .default(sql`'{}'`),
  latencyCounts: bigint("latency_counts", { mode: "number" })
    .array()
    .notNull()
    .default(sql`'{}'`),
});

/** Daily counts per key, endpoint and status, kept in step with request_log as rows are written. */
export const requestDailyRollup = pgTable(
  "request_daily_rollup",
  {
    orgId: text("org_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    endpoint: text("endpoint").notNull(),
    status: smallint("status").notNull(),
    ...rollupMeasures(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.apiKeyId, t.day, t.endpoint, t.status] }), index("request_daily_rollup_org_day_idx").on(t.orgId, t.day)],
);

/**
 * The same per UTC hour and per minute, for the shorter windows; they are kept for less time than
 * the daily rows (core/usage-grains.ts).
 */
function periodRollup(name: string) {
  return pgTable(
    name,
    {
      orgId: text("org_id").notNull(),
      periodStart: timestamp("period_start", { withTimezone: true, mode: "date" }).notNull(),
      apiKeyId: text("api_key_id").notNull(),
      endpoint: text("endpoint").notNull(),
      status: smallint("status").notNull(),
      ...rollupMeasures(),
    },
    // Windows are read across every key of the organization, so the period comes before the key.
    (t) => [primaryKey({ name: `${name}_pk`, columns: [t.orgId, t.periodStart, t.apiKeyId, t.endpoint, t.status] })],
  );
}

export const requestHourlyRollup = periodRollup("request_hourly_rollup");
export const requestMinuteRollup = periodRollup("request_minute_rollup");

/**
 * Requests logged but not yet folded into the hourly and minute rollups: the log writer appends a
 * narrow row per request (no upsert, no histogram merge on the request path) and a background
 * fold moves them into the rollups (db/rollups/fold.ts, foldPendingRollups). Reads add what is still
 * here, so usage stays exact and current. Seconds of traffic: no index beyond the heap.
 */
export const requestRollupPending = pgTable("request_rollup_pending", {
  orgId: text("org_id").notNull(),
  apiKeyId: text("api_key_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  endpoint: text("endpoint").notNull(),
  status: smallint("status").notNull(),
  latencyBucket: smallint("latency_bucket").notNull(),
});

/**
 * Closed hours and days of an organization's usage as documents (lib/usage/snapshot-document.ts), one per
 * level of detail: a period's own traffic ("period"), and for days every request up to the day's
 * end ("cumulative"), so a run of whole days is the difference of two documents. Built by
 * lib/usage/snapshots.ts once a period is over; never changed after.
 */
export const usageSnapshots = pgTable(
  "usage_snapshot",
  {
    orgId: text("org_id").notNull(),
    /** The traffic of the organization's live keys or of its test keys (docs/features/test-mode.md#traffic), never both. */
    mode: mode(),
    grain: text("grain", { enum: ["hour", "day"] }).notNull(),
    kind: text("kind", { enum: ["period", "cumulative"] }).notNull(),
    level: text("level").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true, mode: "date" }).notNull(),
    document: text("document").notNull(),
  },
  (t) => [primaryKey({ name: "usage_snapshot_pk", columns: [t.orgId, t.mode, t.grain, t.kind, t.level, t.periodStart] })],
);

/**
 * How far each organization's snapshots reach: every hour before `hours_through` and every day
 * before `days_through` has its documents (none where it had no traffic); null until the first
 * are built. The rollup fold adds the row of an organization with new traffic.
 */
export const usageSnapshotMarks = pgTable("usage_snapshot_mark", {
  orgId: text("org_id").primaryKey(),
  hoursThrough: timestamp("hours_through", { withTimezone: true, mode: "date" }),
  daysThrough: timestamp("days_through", { withTimezone: true, mode: "date" }),
});

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

/**
 * The requests each key with a budget was admitted in each of its periods (the period's
 * first instant, UTC), counted by the admission statement's upsert, whose row lock makes the count
 * exact across processes. `used` never passes the limit it was counted against: a request the
 * budget refuses is not counted. `prior` is `used` before the statement that last wrote the row,
 * so that statement can tell which of its requests got the places (db/queries/admission-statement.ts);
 * `budget_limit` is the limit that statement applied.
 */
export const keyBudgetUsage = pgTable(
  "key_budget_usage",
  {
    orgId: text("org_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true, mode: "date" }).notNull(),
    used: integer("used").notNull(),
    prior: integer("prior").notNull().default(0),
    budgetLimit: integer("budget_limit").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.apiKeyId, t.periodStart] })],
);

/** How long an Idempotency-Key and its response are kept (Stripe's 24 hours). */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** Raw bytes: a stored response is replayed exactly as it was sent, JSON or PDF. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * POST requests sent with an Idempotency-Key (docs/features/api.md#idempotency-key), per organization and key, for 24 hours:
 * the request's hash, and once it has finished, the response to replay. A row without a response
 * is a request still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    orgId: tenant(),
    /** A key is a test key's or a live key's: the same Idempotency-Key in the other mode is another request. */
    mode: mode(),
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
  (t) => [primaryKey({ columns: [t.orgId, t.mode, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Calls counted against the monthly quota, per organization and UTC month (first day), spread
 * over up to QUOTA_SHARDS rows so concurrent requests of one organization do not queue on one row
 * lock. Each shard accepts calls while `count < cap`, and the caps of a month sum to the quota, so
 * the total stays exact (db/queries/monthly-usage.ts). Shard -1 holds calls beyond the quota
 * carried over from a plan change; its cap is 0. Plans without a quota write no rows.
 */
export const monthlyUsage = pgTable(
  "monthly_usage",
  {
    orgId: tenant(),
    month: date("month", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull().default(0),
    count: integer("count").notNull(),
    cap: integer("cap").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month, t.shard] })],
);
