import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { bodyLimit, MAX_BODY_BYTES } from "./body-limit";
import type { ApiEnv } from "./env";
import { ApiError, validationError, type ApiErrorCode, type ApiErrorCodeWithStatus, type ApiErrorStatus } from "./errors";
import { newRequestId } from "@/core/ids";
import { gateway, routeTemplate } from "./gateway";
import { serviceMetrics } from "@/lib/metrics/service-metrics";
import { idempotency } from "./idempotency";
import { renderError } from "./render-error";
import { registerRoutes } from "./routes";
import { MCP_PATH, mcpEndpoint } from "./mcp/endpoint";
import { log } from "@/core/log";
import { traceRequests } from "./trace-requests";

// What Hono and @hono/zod-openapi throw for a body they cannot read, as the API's error codes of
// the status Hono chose, so the answer keeps the status the document gives the code.
const HTTP_EXCEPTION_CODES: Partial<Record<number, ApiErrorCode>> = {
  400: "invalid_json",
  413: "payload_too_large",
  415: "unsupported_media_type",
} satisfies { [S in ApiErrorStatus]?: ApiErrorCodeWithStatus<S> };

/** The /v1 API: one Hono app, its routes and OpenAPI document from the same zod schemas. */
export function createApiApp(options: { clock?: () => number } = {}): OpenAPIHono<ApiEnv> {
  const clock = options.clock ?? Date.now;
  const gatewayMiddleware = gateway();
  const metrics = serviceMetrics();
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return renderError(c as Context<ApiEnv>, validationError(result.error, result.target));
    },
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) return renderError(c, error);
    const code = error instanceof HTTPException ? HTTP_EXCEPTION_CODES[error.status] : undefined;
    if (code) return renderError(c, ApiError.of(code, code === "invalid_json" ? "The request body is not valid JSON." : error.message));
    log.error(
      { err: error, requestId: c.get("requestId"), traceId: c.get("traceId"), method: c.req.method, route: routeTemplate(c) ?? "(no route)" },
      "Unhandled error",
    );
    return renderError(c, ApiError.internal());
  });
  app.notFound((c) => renderError(c, ApiError.of("route_not_found", `No route ${c.req.method} ${c.req.path}. See /docs for the API reference.`)));

  // Every answer, /V1/… and other paths of no route included, carries these.
  app.use("*", async (c, next) => {
    // The request's time is its id's: the audit row is found by the id alone (core/ids.ts).
    const receivedAt = clock();
    const requestId = newRequestId(receivedAt);
    c.set("receivedAt", receivedAt);
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    // Every answer, errors included, is data for one caller: never sniffed as another type, never stored.
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "no-store");
    // Timed only for what reads the time: the metrics, or the debug log.
    const debug = log.isLevelEnabled("debug");
    if (!metrics && !debug) return next();
    const started = performance.now();
    await next();
    const route = routeTemplate(c) ?? "(no route)";
    const seconds = (performance.now() - started) / 1000;
    metrics?.request(route, c.req.method, c.res.status, seconds);
    // The route's template, never the path as sent: a path can carry an id or a credential.
    if (debug) log.debug({ requestId, traceId: c.get("traceId"), method: c.req.method, route, status: c.res.status, seconds }, "request served");
  });
  app.use("*", traceRequests());
  // The OpenAPI document is public, and the MCP endpoint checks the key of its own messages, which
  // are no API calls (docs/features/mcp.md); every other /v1 request passes the gateway.
  const ungated = (path: string) => path === "/v1/openapi.json" || path === MCP_PATH;
  app.use("/v1/*", (c, next) => (ungated(c.req.path) ? next() : gatewayMiddleware(c, next)));
  app.use(
    "/v1/*",
    bodyLimit(MAX_BODY_BYTES, () => {
      // The rest of the body is not read and @hono/node-server closes the connection after the
      // answer: said in advance, a pooled client sends its next request on a new one instead of
      // into a closed socket (ECONNRESET).
      throw ApiError.of("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`, { headers: { Connection: "close" } });
    }),
  );
  // Idempotency keys belong to the gateway's caller; a tool call is its own request.
  const idempotencyMiddleware = idempotency();
  app.use("/v1/*", (c, next) => (ungated(c.req.path) ? next() : idempotencyMiddleware(c, next)));

  registerRoutes(app);
  mcpEndpoint(app);
  return app;
}
