import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { ApiEnv } from "../env";
import { ENTERPRISE_RATE_LIMIT_RANGE, PLANS } from "@/lib/plans/catalog";
import { KEY_BUDGET_MAX } from "@/core/key-budget";
import { API_ERRORS, ERROR_DETAILS_MAX, ERROR_TEXT_MAX, type ApiErrorCode, type ApiErrorCodeWithStatus, type ApiErrorStatus } from "../errors";

// ── Headers ────────────────────────────────────────────────────────────────────────────────────

const HEADERS = {
  "X-Request-Id": "Id of this request (req_…), on every response; quote it to support. The audit log in the dashboard has it too.",
  traceparent:
    "The W3C trace context of this request (https://www.w3.org/TR/trace-context/), on every response: your trace when you sent a `traceparent`, else one of its own. The audit log keeps its trace id.",
  "X-RateLimit-Limit": "Requests per minute allowed for this key.",
  "X-RateLimit-Remaining": "Requests left in the current one-minute window.",
  "X-RateLimit-Reset": "When the current window ends, in Unix seconds.",
  "X-Quota-Limit": "Calls per UTC calendar month allowed for the organization; absent when unlimited.",
  "X-Quota-Remaining": "Calls left this month; absent when unlimited.",
  "X-Key-Budget-Limit":
    "Requests this key may make per UTC day, week (from Monday) or month: its own budget, set in the dashboard; absent when the key has none.",
  "X-Key-Budget-Remaining": "Requests left in the key's budget this period; absent when the key has none.",
  "X-Key-Budget-Reset": "When the key's budget period ends and the budget starts again, in Unix seconds; absent when the key has none.",
  "Retry-After": "Seconds to wait before retrying.",
  "X-API-Key-Expires": "When this key stops working (RFC 3339, UTC); absent when it never expires.",
  "Server-Timing":
    "Where the server's time went, in milliseconds (https://www.w3.org/TR/server-timing/): `admission` (the key, its limits and counters), `handler` (the operation), `log` (the audit row, written before the answer) and `total`, the gateway's whole time. On every answer whose key was found.",
} as const;
type HeaderName = keyof typeof HEADERS;

const LARGEST_QUOTA = Math.max(...Object.values(PLANS).map((plan) => plan.monthlyCalls ?? 0));
const UNIX_SECONDS = { minimum: Date.UTC(2000, 0, 1) / 1000, maximum: Date.UTC(2100, 0, 1) / 1000 };

/** Each header's schema, with the range its values can take. */
const HEADER_SCHEMAS: Record<HeaderName, object> = {
  "X-Request-Id": { type: "string", pattern: "^req_[A-Za-z0-9]+$", maxLength: 64 },
  traceparent: {
    type: "string",
    pattern: "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$",
    maxLength: 55,
    example: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  },
  "X-RateLimit-Limit": { type: "integer", format: "int32", minimum: 1, maximum: ENTERPRISE_RATE_LIMIT_RANGE.max },
  "X-RateLimit-Remaining": { type: "integer", format: "int32", minimum: 0, maximum: ENTERPRISE_RATE_LIMIT_RANGE.max },
  "X-RateLimit-Reset": { type: "integer", format: "int64", ...UNIX_SECONDS },
  "X-Quota-Limit": { type: "integer", format: "int32", minimum: 1, maximum: LARGEST_QUOTA },
  "X-Quota-Remaining": { type: "integer", format: "int32", minimum: 0, maximum: LARGEST_QUOTA },
  "X-Key-Budget-Limit": { type: "integer", format: "int32", minimum: 1, maximum: KEY_BUDGET_MAX },
  "X-Key-Budget-Remaining": { type: "integer", format: "int32", minimum: 0, maximum: KEY_BUDGET_MAX },
  "X-Key-Budget-Reset": { type: "integer", format: "int64", ...UNIX_SECONDS },
  // At most until the next month begins.
  "Retry-After": { type: "integer", format: "int32", minimum: 1, maximum: 31 * 86_400 },
  "X-API-Key-Expires": { type: "string", format: "date-time", maxLength: 20, example: "2027-01-31T00:00:00Z" },
  "Server-Timing": { type: "string", maxLength: 200, example: "admission;dur=0.412, handler;dur=0.305, log;dur=0.377, total;dur=1.121" },
};
const BUDGET_HEADERS: HeaderName[] = ["X-Key-Budget-Limit", "X-Key-Budget-Remaining", "X-Key-Budget-Reset"];
const OPTIONAL_HEADERS: HeaderName[] = ["X-Quota-Limit", "X-Quota-Remaining", "X-API-Key-Expires", "Server-Timing", ...BUDGET_HEADERS];

/** What every answer carries, whatever its status. */
const ON_EVERY_ANSWER: HeaderName[] = ["X-Request-Id", "traceparent"];

const headerRefs = (names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** Headers of a request that passed authentication: the rate limit, the key's budget when it has one, and the quota when the plan has one. */
export const ADMITTED = headerRefs([
  ...ON_EVERY_ANSWER,
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  ...BUDGET_HEADERS,
  "X-Quota-Limit",
  "X-Quota-Remaining",
  "X-API-Key-Expires",
  "Server-Timing",
]);

// ── Error bodies ───────────────────────────────────────────────────────────────────────────────

const ErrorDetail = z
  .object({
    path: z.string().max(ERROR_TEXT_MAX).openapi({ description: "Dotted path of the field: `lines.0.quantity`, `query.limit`.", example: "lines.0.quantity" }),
    message: z.string().max(ERROR_TEXT_MAX).openapi({ example: "Quantities are whole numbers from 1 to 1,000,000." }),
  })
  .openapi("ErrorDetail");

function errorBody(codes: ApiErrorCode[]) {
  return z.object({
    error: z.object({
      code: z.enum(codes as [ApiErrorCode, ...ApiErrorCode[]]),
      message: z.string().max(ERROR_TEXT_MAX).openapi({ description: "For people: what happened and what to do." }),
      request_id: z
        .string()
        .regex(/^req_[A-Za-z0-9]+$/)
        .max(64)
        .openapi({ example: "req_7Hq2LmN5pR8sT1vW4xY6" }),
      details: z
        .array(ErrorDetail)
        .max(ERROR_DETAILS_MAX)
        .optional()
        .openapi({ description: `Validation errors only: one entry per problem (the first ${ERROR_DETAILS_MAX}).` }),
    }),
  });
}

function describe(codes: ApiErrorCode[]): string {
  return codes.map((code) => `\`${code}\`: ${API_ERRORS[code].description}`).join("\n\n");
}

// A shared response stands under one status, so the codes it lists must all have that status.
type SharedResponse = {
  [S in ApiErrorStatus]: { codes: readonly [ApiErrorCodeWithStatus<S>, ...ApiErrorCodeWithStatus<S>[]]; headers: object };
}[ApiErrorStatus];

/** Shared responses of every route: the gateway's refusals and our own failures. */
const SHARED = {
  Unauthorized: {
    codes: ["api_key_missing", "api_key_invalid", "api_key_revoked", "api_key_expired"],
    headers: headerRefs([...ON_EVERY_ANSWER, "Server-Timing"]),
  },
  Forbidden: {
    codes: ["ip_not_allowed", "plan_no_api_access", "api_key_scope_insufficient"],
    headers: headerRefs([...ON_EVERY_ANSWER, "X-API-Key-Expires", "Server-Timing"]),
  },
  TooManyRequests: {
    codes: ["rate_limited", "key_budget_exceeded", "monthly_quota_exceeded"],
    headers: headerRefs([
      ...ON_EVERY_ANSWER,
      "Retry-After",
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      ...BUDGET_HEADERS,
      "X-Quota-Limit",
      "X-Quota-Remaining",
      "X-API-Key-Expires",
      "Server-Timing",
    ]),
  },
  InternalError: { codes: ["internal_error"], headers: headerRefs([...ON_EVERY_ANSWER, "Server-Timing"]) },
  PayloadTooLarge: { codes: ["payload_too_large"], headers: ADMITTED },
  UnsupportedMediaType: { codes: ["unsupported_media_type"], headers: ADMITTED },
} as const satisfies Record<string, SharedResponse>;

type SharedName = keyof typeof SHARED;

export function registerSharedComponents(app: OpenAPIHono<ApiEnv>): void {
  const registry = app.openAPIRegistry;
  for (const [name, description] of Object.entries(HEADERS) as [HeaderName, string][]) {
    registry.registerComponent("headers", name, { description, required: !OPTIONAL_HEADERS.includes(name), schema: HEADER_SCHEMAS[name] });
  }
  for (const [name, { codes, headers }] of Object.entries(SHARED) as [SharedName, (typeof SHARED)[SharedName]][]) {
    registry.register(`${name}Body`, errorBody([...codes]));
    registry.registerComponent("responses", name, {
      description: describe([...codes]),
      headers,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${name}Body` } } },
    });
  }
}

// ── Per-route responses ────────────────────────────────────────────────────────────────────────

/** A shared response under its status: `{ 401: { $ref: "#/components/responses/Unauthorized" } }`. */
function shared<N extends SharedName>(name: N) {
  const status = API_ERRORS[SHARED[name].codes[0]].status;
  return { [status]: { $ref: `#/components/responses/${name}` } } as Record<(typeof API_ERRORS)[(typeof SHARED)[N]["codes"][0]]["status"], { $ref: string }>;
}

export function ok<T extends ZodType>(schema: T, description: string) {
  return { description, headers: ADMITTED, content: { "application/json": { schema } } };
}

/**
 * The error responses of a route: the codes it can answer with, grouped by status, plus the
 * shared gateway responses. `body` adds the refusals of routes that read a JSON body, `idempotent`
 * those of an Idempotency-Key (every POST).
 */
export function refusals(codes: ApiErrorCode[], options: { body?: boolean; idempotent?: boolean } = {}) {
  const own: ApiErrorCode[] = [
    ...codes,
    ...(options.body ? (["validation_failed", "invalid_json"] as const) : []),
    ...(options.idempotent ? (["validation_failed", "idempotency_key_reused", "idempotency_key_in_use"] as const) : []),
  ];
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of new Set(own)) {
    const { status } = API_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return {
    ...Object.fromEntries(
      [...byStatus].map(([status, group]) => [
        status,
        { description: describe(group), headers: ADMITTED, content: { "application/json": { schema: errorBody(group) } } },
      ]),
    ),
    ...shared("Unauthorized"),
    ...shared("Forbidden"),
    ...shared("TooManyRequests"),
    ...shared("InternalError"),
    ...(options.body ? { ...shared("PayloadTooLarge"), ...shared("UnsupportedMediaType") } : {}),
  };
}

/** A required JSON request body. */
export function jsonBody<T extends ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { "application/json": { schema } } };
}
