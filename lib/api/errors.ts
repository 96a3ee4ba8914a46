import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";

/**
 * Every error code of the API with its status and the sentence the OpenAPI document gives it.
 * The one place a code is declared: ApiError, the error bodies' `code` enum and each route's
 * documented refusals all read it, so a code cannot be thrown with a status the document denies.
 */
export const API_ERRORS = {
  // The gateway's refusals, in the order it checks them.
  api_key_missing: { status: 401, description: "No X-API-Key header." },
  api_key_invalid: { status: 401, description: "The key is malformed (prefix, length or checksum) or unknown." },
  api_key_revoked: { status: 401, description: "The key was revoked in the dashboard." },
  api_key_expired: { status: 401, description: "The key passed the expiry date it was given at creation (X-API-Key-Expires told when)." },
  ip_not_allowed: { status: 403, description: "The key has an IP allowlist and the request came from an address not on it." },
  plan_no_api_access: { status: 403, description: "The organization's plan (Solo) has no API access." },
  api_key_scope_insufficient: {
    status: 403,
    description: "The key is read only or restricted, and its access does not cover the request: the message names the resource and the permission needed.",
  },
  rate_limited: { status: 429, description: "The key's per-minute rate limit is used up; retry after Retry-After seconds." },
  key_budget_exceeded: {
    status: 429,
    description:
      "The key's own budget (requests per UTC day, week or month, set in the dashboard) is used up; it resets when X-Key-Budget-Reset says (Retry-After).",
  },
  monthly_quota_exceeded: {
    status: 429,
    description: "The organization's monthly call quota is used up; it resets at the start of the next UTC month (Retry-After).",
  },
  // The request itself.
  validation_failed: {
    status: 400,
    description: "The path, query or body does not match the schema, or contradicts the data it refers to; `details` lists each problem.",
  },
  invalid_json: { status: 400, description: "The body is not valid JSON." },
  not_found: { status: 404, description: "No object with this id in your organization (ids of other organizations are unknown too)." },
  route_not_found: { status: 404, description: "No such route." },
  payload_too_large: { status: 413, description: "The body is over the size limit given in the API description." },
  unsupported_media_type: { status: 415, description: "The body is not sent as application/json." },
  // A rule of the data refused the request: each code names the rule.
  invoice_not_draft: { status: 409, description: "The invoice is no longer a draft: only drafts can be edited, finalized or deleted." },
  invoice_not_open: { status: 409, description: "The invoice is not open: only open invoices can be marked paid or voided." },
  insufficient_stock: { status: 409, description: "Finalizing would take a stocked product below zero units; nothing was changed." },
  customer_has_open_invoices: { status: 409, description: "The customer has open invoices: mark them paid or void them first." },
  product_archived: { status: 409, description: "The product is archived and cannot be added to invoices." },
  sku_taken: { status: 409, description: "Another product of the organization already has this SKU." },
  // Idempotency-Key (docs/features/api.md#idempotency-key).
  idempotency_key_reused: { status: 409, description: "The Idempotency-Key was sent with another request (method, path or body) in the last 24 hours." },
  idempotency_key_in_use: { status: 409, description: "A request with this Idempotency-Key is still running; retry once it has finished." },
  // A fault of ours, never of the request.
  internal_error: { status: 500, description: "Our fault; contact support with the request id." },
} as const satisfies Record<string, { status: ContentfulStatusCode; description: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;
export type ApiErrorStatus = (typeof API_ERRORS)[ApiErrorCode]["status"];
export type ApiErrorCodeWithStatus<S extends ApiErrorStatus> = { [C in ApiErrorCode]: (typeof API_ERRORS)[C]["status"] extends S ? C : never }[ApiErrorCode];

/** Bounds of an error body: a refusal never echoes an input at length. */
export const ERROR_DETAILS_MAX = 100;
export const ERROR_TEXT_MAX = 500;

export interface ApiErrorDetail {
  path: string;
  message: string;
}

/** Every refusal of the API: one type, rendered in one place (lib/api/app.ts). */
export class ApiError extends Error {
  readonly status: ApiErrorStatus;

  // Private so that the status always comes from the table: build one with ApiError.of.
  private constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: ApiErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = API_ERRORS[code].status;
  }

  static of(code: ApiErrorCode, message: string, options: { details?: ApiErrorDetail[]; headers?: Record<string, string> } = {}) {
    return new ApiError(code, message, options.details, options.headers);
  }

  /** A failure on our side: the cause goes to the server log, never to the client. */
  static internal() {
    return ApiError.of("internal_error", "Something went wrong on our side. Contact support with the request id.");
  }

  body(requestId: string) {
    return { error: { code: this.code, message: this.message, request_id: requestId, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** The error body every refusal is answered with (docs/features/api.md). */
export type ApiErrorBody = ReturnType<ApiError["body"]>;

// zod names unknown keys in its messages, and a key can be as long as the body.
const clip = (text: string) => (text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX - 1)}…` : text);

/** zod issues as an error body's `details`: `[{ path: "lines.0.quantity", message: "…" }]`. */
export function validationError(error: ZodError, target: string): ApiError {
  const details = error.issues.slice(0, ERROR_DETAILS_MAX).map((issue) => ({
    path: clip([target === "json" ? "" : target, ...issue.path.map(String)].filter(Boolean).join(".") || target),
    message: clip(issue.message),
  }));
  return ApiError.of("validation_failed", "The request is not valid: see details.", { details });
}
