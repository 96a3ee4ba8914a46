import type { MiddlewareHandler } from "hono";
import { activeTracing } from "@/core/tracing";
import { formatTraceparent, parseTraceparent, untracedSpan, type TraceContext } from "@/core/trace-context";
import type { ApiEnv } from "./env";
import { endpointOf, routeTemplate } from "./gateway";

/**
 * Every answer's W3C trace context (docs/operations.md#traces): the request continues the caller's
 * `traceparent` or starts a trace, answers with its own `traceparent`, and its audit row keeps the
 * trace id. While the process traces, the request runs in its server span, named by its route
 * template ("GET /v1/invoices/{id}"), never its path.
 */
export function traceRequests(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const parent = parseTraceparent(c.req.header("traceparent"));
    const answerIn = (own: TraceContext) => {
      c.set("traceId", own.traceId);
      c.header("traceparent", formatTraceparent(own));
    };
    const tracing = activeTracing();
    if (!tracing) {
      answerIn(untracedSpan(parent));
      return next();
    }
    const template = routeTemplate(c);
    // OpenTelemetry's HTTP attribute names, spelled out: nothing of OpenTelemetry loads in an untraced process.
    const attributes = { "http.request.method": c.req.method, "http.route": template ?? "(no route)", "invoicing.request_id": c.get("requestId") };
    await tracing.inRequestSpan(endpointOf(c.req.method, template), parent, attributes, async (own) => {
      answerIn(own);
      await next();
      return c.res.status;
    });
  };
}
