import type { ContentfulStatusCode } from "hono/utils/http-status";

export const API_ERROR_CODES = {
  api_key_missing: 401,
  api_key_invalid: 401,
  api_key_revoked: 401,
  plan_no_api_access: 403,
  rate_limited: 429,
  monthly_quota_exceeded: 429,
  validation_failed: 400,
  invalid_json: 400,
  not_found: 404,
  route_not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

/** Bounds of an error body: a refusal never echoes an input at length. */
export const ERROR_DETAILS_MAX = 100;
export const ERROR_TEXT_MAX = 500;

export type ApiErrorCode = keyof typeof API_ERROR_CODES | (string & {});

export interface ApiErrorDetail {
  path: string;
  message: string;
}

/** Every refusal of the API: one type, rendered in one place (lib/api/app.ts). */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: ApiErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  static of(code: keyof typeof API_ERROR_CODES, message: string, options: { details?: ApiErrorDetail[]; headers?: Record<string, string> } = {}) {
    return new ApiError(API_ERROR_CODES[code], code, message, options.details, options.headers);
  }

  /** A failure on our side: the cause goes to the server log, never to the client. */
  static internal() {
    return ApiError.of("internal_error", "Something went wrong on our side. Contact support with the request id.");
  }

  body(requestId: string) {
    return { error: { code: this.code, message: this.message, request_id: requestId, ...(this.details ? { details: this.details } : {}) } };
  }
}
