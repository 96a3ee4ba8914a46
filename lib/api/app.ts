import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import type { ApiEnv } from "./env";
import { ApiError } from "./errors";
import { newId } from "@/lib/ids";
import { gateway } from "./gateway";
import { registerRoutes } from "./routes";

export const MAX_BODY_BYTES = 1024 * 1024;

function renderError(c: Context<ApiEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  return c.json(error.body(c.get("requestId") ?? "req_unknown"), error.status);
}

/** zod issues as the spec's `details`: `[{ path: "lines.0.quantity", message: "…" }]`. */
export function validationError(error: ZodError, target: string): ApiError {
  const details = error.issues.map((issue) => ({
    path: [target === "json" ? "" : target, ...issue.path.map(String)].filter(Boolean).join(".") || target,
    message: issue.message,
  }));
  return ApiError.of("validation_failed", "The request is not valid: see details.", { details });
}

/** The /v1 API: one Hono app, its routes and OpenAPI document from the same zod schemas. */
export function createApiApp(options: { clock?: () => number } = {}): OpenAPIHono<ApiEnv> {
  const gatewayMiddleware = gateway(renderError, options.clock);
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return renderError(c as Context<ApiEnv>, validationError(result.error, result.target));
    },
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) return renderError(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 413 ? "payload_too_large" : error.status === 400 ? "invalid_json" : "bad_request";
      const message = error.status === 400 ? "The request body is not valid JSON." : error.message;
      return renderError(c, new ApiError(error.status as 400, code, message));
    }
    console.error(`Unhandled error in ${c.req.method} ${c.req.path} (${c.get("requestId")})`, error);
    return renderError(c, ApiError.of("internal_error", "Something went wrong on our side. Contact support with the request id."));
  });
  app.notFound((c) => renderError(c, ApiError.of("route_not_found", `No route ${c.req.method} ${c.req.path}. See /docs for the API reference.`)));

  app.use("/v1/*", async (c, next) => {
    const requestId = newId("req");
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
  });
  // The OpenAPI document is public; every other /v1 request passes the gateway.
  app.use("/v1/*", (c, next) => (c.req.path === "/v1/openapi.json" ? next() : gatewayMiddleware(c, next)));
  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw ApiError.of("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`);
      },
    }),
  );

  registerRoutes(app);
  return app;
}
