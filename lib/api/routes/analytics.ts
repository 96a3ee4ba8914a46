import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { Analytics, AnalyticsQuery } from "../schemas/analytics";
import { ok, refusals } from "../schemas/responses";
import { analytics, resolveRange } from "../services/analytics";

const retrieve = createRoute({
  method: "get",
  path: "/v1/analytics",
  tags: ["Analytics"],
  operationId: "getAnalytics",
  summary: "Business metrics",
  description:
    "Revenue (paid invoices, by payment day), outstanding and overdue amounts (open invoices dated within the range), invoice counts by status, revenue by month and top customers, for `from`…`to` (UTC days, both included; the last twelve months when omitted). Amounts are grouped per currency and never converted or summed across currencies.",
  request: { query: AnalyticsQuery },
  responses: { 200: ok(Analytics, "The metrics of the range."), ...refusals(["validation_failed"]) },
});

export function analyticsRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(retrieve, async (c) => c.json(await analytics(c.get("caller"), resolveRange(c.req.valid("query"))), 200));
}
