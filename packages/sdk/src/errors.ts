import type { paths } from "./generated/openapi.js";
import { responseMeta, type ResponseMeta } from "./response-meta.js";

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type CodesOf<Operation> = Operation extends { responses: infer Responses }
  ? { [Status in keyof Responses]: Json<Responses[Status]> extends { error: { code: infer Code } } ? Code : never }[keyof Responses]
  : never;

/** Every error code the API's document names, so a `switch (error.code)` is checked by the compiler. */
export type ApiErrorCode = { [Path in keyof paths]: { [Method in keyof paths[Path]]: CodesOf<paths[Path][Method]> }[keyof paths[Path]] }[keyof paths];

/** One field's problem in a `400 validation_failed`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * An answer of the API that is not a success, or no answer at all. Match on `code` (`message` is
 * for people); quote `requestId` to support: it finds the call in the dashboard's audit log.
 */
export class InvoicingError extends Error {
  override readonly name: string = "InvoicingError";
  /** The HTTP status, or null when no answer came (ConnectionError). */
  readonly status: number | null;
  readonly code: ApiErrorCode | "connection_error" | "unexpected_response";
  readonly requestId: string | null;
  readonly details: ErrorDetail[];
  /** The answer's limit headers: after a 429, `meta.retryAfterSeconds` says when to come back. */
  readonly meta: ResponseMeta | null;

  constructor(
    message: string,
    fields: { status: number | null; code: InvoicingError["code"]; requestId?: string | null; details?: ErrorDetail[]; meta?: ResponseMeta | null },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId ?? fields.meta?.requestId ?? null;
    this.details = fields.details ?? [];
    this.meta = fields.meta ?? null;
  }
}

export class BadRequestError extends InvoicingError {
  override readonly name = "BadRequestError";
}
export class AuthenticationError extends InvoicingError {
  override readonly name = "AuthenticationError";
}
export class PermissionDeniedError extends InvoicingError {
  override readonly name = "PermissionDeniedError";
}
export class NotFoundError extends InvoicingError {
  override readonly name = "NotFoundError";
}
export class ConflictError extends InvoicingError {
  override readonly name = "ConflictError";
}
export class RateLimitError extends InvoicingError {
  override readonly name = "RateLimitError";
}
export class InternalServerError extends InvoicingError {
  override readonly name = "InternalServerError";
}
/** The request got no answer: the server could not be reached, or the connection dropped or timed out on every attempt. */
export class ConnectionError extends InvoicingError {
  override readonly name = "ConnectionError";
}

const BY_STATUS: Record<number, typeof InvoicingError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

interface ErrorBody {
  error?: { code?: string; message?: string; request_id?: string; details?: ErrorDetail[] };
}

/** The typed error for an answer that is not a success, from its status and its `{ error }` body. */
export function errorOfAnswer(response: Response, body: unknown): InvoicingError {
  const meta = responseMeta(response.headers);
  const error = (body as ErrorBody | null)?.error;
  const Class = BY_STATUS[response.status] ?? (response.status >= 500 ? InternalServerError : InvoicingError);
  if (!error?.code) {
    const text = typeof body === "string" && body ? `: ${body.slice(0, 200)}` : "";
    return new Class(`The API answered ${response.status} without an error body${text}.`, { status: response.status, code: "unexpected_response", meta });
  }
  return new Class(error.message ?? error.code, {
    status: response.status,
    code: error.code as ApiErrorCode,
    requestId: error.request_id ?? meta.requestId,
    details: error.details,
    meta,
  });
}
