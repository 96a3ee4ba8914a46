export { Invoicing } from "./client.js";
export { ApiPromise, PagePromise, type Page, type WithResponse } from "./api-promise.js";
export { connection, SDK_VERSION, type ClientOptions, type RequestOptions } from "./core.js";
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvoicingError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ApiErrorCode,
  type ErrorDetail,
} from "./errors.js";
export type { ResponseMeta } from "./response-meta.js";
export type * from "./resources.js";
export type { components, operations, paths } from "./generated/openapi.js";
