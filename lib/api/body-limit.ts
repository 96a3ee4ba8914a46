import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "./env";
import { readAtMost } from "./read-prefix";

/** The largest request body /v1 accepts; the API description states it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Refuses a body over `maxBytes` before a handler reads it: on its Content-Length before a byte of
 * it is read (a client may never send the length it declared), otherwise (chunked, or no length at
 * all) by reading at most `maxBytes` and handing the handlers a request with those bytes. The
 * request's details do not read a refused body either (lib/api/request-details.ts).
 *
 * Hono's own bodyLimit rebuilds the request as `new Request(c.req.raw, …)`. Under @hono/node-server
 * with the global Request left alone (servers/one-port-listener.ts must: Next.js shares the process), c.req.raw is
 * node-server's lightweight request, which the global Request cannot copy, so every DELETE or POST
 * without a Content-Length (and every chunked body) became a 500. This rebuilds the request from its
 * URL, method, headers and signal, which any Request has.
 */
export function bodyLimit(maxBytes: number, refuse: () => never): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const request = c.req.raw;
    // With Transfer-Encoding, a Content-Length means nothing (RFC 9112 §6.3).
    const declared = request.headers.get("transfer-encoding") === null ? request.headers.get("content-length") : null;
    if (declared !== null && Number(declared) > maxBytes) refuse();
    // Asked for its body, node-server's lightweight request builds a whole Request: a GET has none.
    if (declared !== null || request.method === "GET" || request.method === "HEAD" || !request.body) return next();
    // Past the bound, the rest is left unread for the server to discard.
    const body = await readAtMost(request.body, maxBytes);
    if (!body) refuse();
    c.req.raw = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    return next();
  };
}
