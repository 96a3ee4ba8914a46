import type { Context } from "hono";
import type { ApiEnv } from "./env";
import type { ApiError } from "./errors";

/**
 * Every `/v1` refusal as the caller reads it (docs/features/api.md): the error body with the
 * request id, its headers, and the code and message the request log keeps.
 */
export function renderError(c: Context<ApiEnv>, error: ApiError): Response {
  c.set("errorCode", error.code);
  c.set("errorMessage", error.message);
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  const body = error.body(c.get("requestId") ?? "req_unknown");
  // The details keep what was sent (c.json sends JSON.stringify of it) without reading the response back.
  c.set("errorBody", body);
  return c.json(body, error.status);
}
