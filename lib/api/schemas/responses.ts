import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { ApiEnv } from "../env";
import { ENTERPRISE_RATE_LIMIT_RANGE, PLANS } from "@/lib/plans";
import { ERROR_DETAILS_MAX, ERROR_TEXT_MAX, type API_ERROR_CODES } from "../errors";
import { CONFLICTS, type ConflictCode } from "../services/refusals";

type GatewayOrRequestCode = keyof typeof API_ERROR_CODES;
export type RefusalCode = GatewayOrRequestCode | ConflictCode;

const REQUEST_REFUSALS = {
  api_key_missing: [401, "No X-API-Key header."],
  api_key_invalid: [401, "The key is malformed (prefix, length or checksum) or unknown."],
  api_key_revoked: [401, "The key was revoked in the dashboard."],
  plan_no_api_access: [403, "The organization's plan (Solo) has no API access."],
  rate_limited: [429, "The key's per-minute rate limit is used up; retry after Retry-After seconds."],
  monthly_quota_exceeded: [429, "The organization's monthly call quota is used up; it resets at the start of the next UTC month (Retry-After)."],
  validation_failed: [400, "The path, query or body does not match the schema, or contradicts the data it refers to; `details` lists each problem."],
  invalid_json: [400, "The body is not valid JSON."],
  not_found: [404, "No object with this id in your organization (ids of other organizations are unknown too)."],
  route_not_found: [404, "No such route."],
  payload_too_large: [413, "The body is over the size limit given in the API description."],
  unsupported_media_type: [415, "The body is not sent as application/json."],
  internal_error: [500, "Our fault; contact support with the request id."],
} as const satisfies Record<GatewayOrRequestCode, readonly [number, string]>;

function refusal(code: RefusalCode): readonly [number, string] {
  return code in CONFLICTS ? [409, CONFLICTS[code as ConflictCode]] : REQUEST_REFUSALS[code as GatewayOrRequestCode];
}

// ── Headers ────────────────────────────────────────────────────────────────────────────────────

const HEADERS = {
  "X-Request-Id": "Id of this request (req_…), on every response; quote it to support. The audit log in the dashboard has it too.",
  "X-RateLimit-Limit": "Requests per minute allowed for this key.",
  "X-RateLimit-Remaining": "Requests left in the current one-minute window.",
  "X-RateLimit-Reset": "When the current window ends, in Unix seconds.",
  "X-Quota-Limit": "Calls per UTC calendar month allowed for the organization; absent when unlimited.",
  "X-Quota-Remaining": "Calls left this month; absent when unlimited.",
  "Retry-After": "Seconds to wait before retrying.",
} as const;
type HeaderName = keyof typeof HEADERS;

const LARGEST_QUOTA = Math.max(...Object.values(PLANS).map((plan) => plan.monthlyCalls ?? 0));
const UNIX_SECONDS = { minimum: Date.UTC(2000, 0, 1) / 1000, maximum: Date.UTC(2100, 0, 1) / 1000 };

/** Each header's schema, with the range its values can take. */
const HEADER_SCHEMAS: Record<HeaderName, object> = {
  "X-Request-Id": { type: "string", pattern: "^req_[A-Za-z0-9]+$", maxLength: 64 },
  "X-RateLimit-Limit": { type: "integer", format: "int32", minimum: 1, maximum: ENTERPRISE_RATE_LIMIT_RANGE.max },
  "X-RateLimit-Remaining": { type: "integer", format: "int32", minimum: 0, maximum: ENTERPRISE_RATE_LIMIT_RANGE.max },
  "X-RateLimit-Reset": { type: "integer", format: "int64", ...UNIX_SECONDS },
  "X-Quota-Limit": { type: "integer", format: "int32", minimum: 1, maximum: LARGEST_QUOTA },
  "X-Quota-Remaining": { type: "integer", format: "int32", minimum: 0, maximum: LARGEST_QUOTA },
  // At most until the next month begins.
  "Retry-After": { type: "integer", format: "int32", minimum: 1, maximum: 31 * 86_400 },
};
const OPTIONAL_HEADERS: HeaderName[] = ["X-Quota-Limit", "X-Quota-Remaining"];

const headerRefs = (names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** Headers of a request that passed authentication: the rate limit, and the quota when the plan has one. */
export const ADMITTED = headerRefs(["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining"]);

// ── Error bodies ───────────────────────────────────────────────────────────────────────────────

const ErrorDetail = z
  .object({
    path: z.string().max(ERROR_TEXT_MAX).openapi({ description: "Dotted path of the field: `lines.0.quantity`, `query.limit`.", example: "lines.0.quantity" }),
    message: z.string().max(ERROR_TEXT_MAX).openapi({ example: "Quantities are whole numbers from 1 to 1,000,000." }),
  })
  .openapi("ErrorDetail");

function errorBody(codes: RefusalCode[]) {
  return z.object({
    error: z.object({
      code: z.enum(codes as [RefusalCode, ...RefusalCode[]]),
      message: z.string().max(ERROR_TEXT_MAX).openapi({ description: "For people: what happened and what to do." }),
      request_id: z.string().regex(/^req_[A-Za-z0-9]+$/).max(64).openapi({ example: "req_7Hq2LmN5pR8sT1vW4xY6" }),
      details: z.array(ErrorDetail).max(ERROR_DETAILS_MAX).optional().openapi({ description: `Validation errors only: one entry per problem (the first ${ERROR_DETAILS_MAX}).` }),
    }),
  });
}

function describe(codes: RefusalCode[]): string {
  return codes.map((code) => `\`${code}\`: ${refusal(code)[1]}`).join("\n\n");
}

/** Shared responses of every route: the gateway's refusals and our own failures. */
const SHARED = {
  Unauthorized: { status: 401, codes: ["api_key_missing", "api_key_invalid", "api_key_revoked"], headers: headerRefs(["X-Request-Id"]) },
  Forbidden: { status: 403, codes: ["plan_no_api_access"], headers: headerRefs(["X-Request-Id"]) },
  TooManyRequests: {
    status: 429,
    codes: ["rate_limited", "monthly_quota_exceeded"],
    headers: headerRefs(["X-Request-Id", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining"]),
  },
  InternalError: { status: 500, codes: ["internal_error"], headers: headerRefs(["X-Request-Id"]) },
  PayloadTooLarge: { status: 413, codes: ["payload_too_large"], headers: ADMITTED },
  UnsupportedMediaType: { status: 415, codes: ["unsupported_media_type"], headers: ADMITTED },
} as const satisfies Record<string, { status: number; codes: RefusalCode[]; headers: object }>;

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

const sharedRef = (name: SharedName) => ({ $ref: `#/components/responses/${name}` });

export function ok<T extends ZodType>(schema: T, description: string) {
  return { description, headers: ADMITTED, content: { "application/json": { schema } } };
}

/**
 * The error responses of a route: the codes it can answer with, grouped by status, plus the
 * shared gateway responses. `body` adds the refusals of routes that read a JSON body.
 */
export function refusals(codes: RefusalCode[], options: { body?: boolean } = {}) {
  const own: RefusalCode[] = options.body ? [...codes, "validation_failed", "invalid_json"] : codes;
  const byStatus = new Map<number, RefusalCode[]>();
  for (const code of new Set(own)) {
    const [status] = refusal(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return {
    ...Object.fromEntries(
      [...byStatus].map(([status, group]) => [status, { description: describe(group), headers: ADMITTED, content: { "application/json": { schema: errorBody(group) } } }]),
    ),
    401: sharedRef("Unauthorized"),
    403: sharedRef("Forbidden"),
    429: sharedRef("TooManyRequests"),
    500: sharedRef("InternalError"),
    ...(options.body ? { 413: sharedRef("PayloadTooLarge"), 415: sharedRef("UnsupportedMediaType") } : {}),
  };
}

/** A required JSON request body. */
export function jsonBody<T extends ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { "application/json": { schema } } };
}
