import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { ok, refusals } from "../schemas/responses";
import { UsageList, UsageQuery } from "../schemas/usage";
import { usage } from "../services/usage";

const DESCRIPTION = `
Your organization's API traffic per hour or day: requests, 4xx and 5xx answers, and latency percentiles
(p50, p95, p99, each within 2 % of the exact value), optionally split by key, endpoint and status.
Counts are exact and current: a request is counted once its response has been sent. Calls to this
endpoint are ordinary \`/v1\` calls: logged, rate-limited and counted. A restricted key needs \`usage: read\`.

Each key's daily requests and error rate over the last week:

\`\`\`http
GET /v1/usage?from=2026-11-18&bucket=day&group_by=key
X-API-Key: ik_…

{"object": "list", "has_more": false, "next_cursor": null, "data": [
  {"object": "usage_row", "bucket_start": "2026-11-18T00:00:00.000Z", "key_id": "key_4fJ9kQ2mX7pL0aZ3bN8c",
   "endpoint": null, "status": null, "requests": 1840, "errors_4xx": 12, "errors_5xx": 1,
   "p50_ms": 18.42, "p95_ms": 96.1, "p99_ms": 240.7}, …]}
\`\`\`

The 5xx answers of one endpoint, hour by hour: \`GET /v1/usage?from=2026-11-24T00:00:00Z&bucket=hour&endpoint=POST%20/v1/pdf/generate&status=5xx\`.
`.trim();

const list = createRoute({
  method: "get",
  path: "/v1/usage",
  tags: ["Usage"],
  operationId: "listUsage",
  summary: "Usage by hour or day",
  description: DESCRIPTION,
  request: { query: UsageQuery },
  responses: { 200: ok(UsageList, "A page of usage rows, by bucket, then key, endpoint and status."), ...refusals(["validation_failed"]) },
});

export function usageRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(list, async (c) => c.json(await usage(c.get("caller"), c.req.valid("query")), 200));
}
