import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { API_RESOURCE_NAMES, API_RESOURCES, IP_ALLOWLIST_MAX } from "@/core/enums";
import { MAX_RANGE_DAYS } from "@/lib/input-rules";
import { MAX_BODY_BYTES } from "../body-limit";
import { registerSharedComponents } from "../schemas/responses";
import { analyticsRoutes } from "./analytics";
import { customerRoutes } from "./customers";
import { invoiceRoutes } from "./invoices";
import { pdfRoutes } from "./pdf";
import { productRoutes } from "./products";
import { usageRoutes } from "./usage";

const RESOURCE_TABLE = [
  "| resource | paths | permissions |",
  "|---|---|---|",
  ...API_RESOURCE_NAMES.map(
    (resource) => `| ${API_RESOURCES[resource].label} | \`/v1/${resource}\` | none, ${API_RESOURCES[resource].permissions.join(", ")} |`,
  ),
].join("\n");

const DESCRIPTION = `
Invoices, customers, products, analytics and PDFs of your organization, and its API usage.

## Authentication
Send an API key of your organization in the \`X-API-Key\` header. Create keys in the dashboard under Settings › API keys.

## MCP
AI assistants reach the API through its MCP server (Model Context Protocol, streamable HTTP) at \`/v1/mcp\`: point
an MCP client at \`https://<your host>/v1/mcp\` with the same \`X-API-Key\` header. Every operation below is a tool
named by its \`operationId\`, listed only when the key's access covers it. Each tool call is an API call like any other
(counted, limited and logged under its operation's endpoint); listing and connecting are not.

## Live and test mode
A key is live (\`ik_…\`) or test (\`ik_test_…\`), chosen when it is created. A test key does everything a live key
does on separate test data: its customers, products, invoices, invoice numbers, idempotency keys and usage are
its mode's only, and every object carries \`livemode\` (\`false\` for test data). An id of the other mode is
\`404 not_found\`. Test calls have their key's rate limit, restrictions and budget, but never count toward the
monthly quota (their answers carry no \`X-Quota-*\` headers), so a CI suite can run against the API without
touching your real books or spending a real invoice number.

## Restricted keys
A key has **Full access** (the default), is **Read only** (\`GET\` on every resource), or is **Restricted** to
a permission per resource, chosen when it is created and changeable later by an owner or admin:

${RESOURCE_TABLE}

A higher permission includes the lower one (write includes read); \`GET\` needs the first permission listed, any other method
the last listed. A key may also carry an **IP allowlist** of up to ${IP_ALLOWLIST_MAX} addresses or CIDR ranges (IPv4 or IPv6): any other
address is refused with \`403 ip_not_allowed\`. The checks run in this order: the key itself (\`401\`), its
allowlist, the plan, its access, the rate limit, the quota. A refusal by allowlist or access is logged and counts
toward neither the rate limit nor the quota. For a reporting job that only reads analytics from one server:

\`\`\`http
POST /v1/invoices HTTP/1.1
X-API-Key: ik_…            (restricted: analytics read, from 203.0.113.10)

HTTP/1.1 403 Forbidden
{"error": {"code": "api_key_scope_insufficient",
  "message": "This API key cannot write invoices. The request needs the write permission on invoices. An admin can change the key's access in the dashboard.",
  "request_id": "req_…"}}
\`\`\`

## Conventions
- JSON in and out. Request bodies are limited to ${MAX_BODY_BYTES / 1024 / 1024} MiB and refuse unknown fields.
  Text may not contain NUL or unpaired surrogates, dates run from 2000-01-01 to 2099-12-31, and a date range spans at
  most ${MAX_RANGE_DAYS.toLocaleString("en-US")} days; anything else is \`400 validation_failed\`. The request line and headers together are limited
  to 16 KB by the HTTP server itself, which answers a larger head with a bare \`431\`.
- Ids carry their type: \`cus_\` customers, \`prod_\` products, \`in_\` invoices, \`li_\` line items.
  An id of another organization answers \`404 not_found\`, exactly like an id that does not exist.
- Timestamps are ISO 8601 in UTC; dates (issue and due dates, ranges) are \`YYYY-MM-DD\` UTC days.
- Money is an integer amount in the currency's minor unit (cents for USD, yen for JPY) up to
  2^53 − 1, with an active ISO 4217 currency code. Amounts in different currencies are never added up.
- Partial updates use \`PATCH\`: only the fields sent change, and \`null\` clears an optional field.

## Rounding rule
Each line's \`amount\` is \`quantity × unit_amount\` (exact). Its \`tax\` is \`amount × tax_rate / 100\`
rounded **half up** to a whole minor unit, **per line**. The invoice's \`subtotal\` and \`tax\` are the
sums of its lines, and \`total = subtotal + tax\`. Tax rates are percentages with up to four decimals.

## Invoice lifecycle
\`draft\` → \`open\` (finalize: numbered \`INV-000123\` per organization and mode without gaps or duplicates, dates set,
customer details frozen, stock taken) → \`paid\` or \`void\` (stock given back). Only drafts can be edited or
deleted. \`overdue\` is an open invoice past its due date. Each refused transition is a \`409\` whose code names
the rule: \`invoice_not_draft\`, \`invoice_not_open\`, \`insufficient_stock\`, \`customer_has_open_invoices\`.

## Retries
Every \`POST\` accepts an \`Idempotency-Key\` header (1–255 visible ASCII characters; a UUID is a good choice).
For 24 hours, a request with the same key, method, path and body gets the first response again, with
\`Idempotent-Replayed: true\`, and changes nothing: retry a timed-out or failed call with the same key and
you never create a second invoice. The same key with another request is \`409 idempotency_key_reused\`;
while the first request is still running, \`409 idempotency_key_in_use\`. A failure of ours (5xx) frees the
key so that the retry runs again. Keys are per organization and mode.

## Pagination
Lists return \`{ "object": "list", "data": [...], "has_more": true, "next_cursor": "cus_…" }\`, newest first.
Pass \`next_cursor\` as \`starting_after\` for the next page, and \`limit\` (1–100, default 10) for its size.
Cursors are positions, not offsets: objects created while you page never make a page skip or repeat one.

## Errors
Every error is \`{ "error": { "code", "message", "request_id" } }\`; validation errors add
\`details: [{ "path", "message" }]\`. Match on \`code\`; \`message\` is for people. A path that is not part of
the API answers \`404 route_not_found\`, once the key has passed the checks every \`/v1\` request passes.

## CORS
The API is for servers: it sends no CORS headers, so browsers refuse cross-origin calls. Never put a key in
code that runs in a browser; call the API from your backend.

## Tracing
Every response carries a W3C \`traceparent\` header. Send your own \`traceparent\` and the request joins your
trace: the answer names your trace id with the server's span, and the request's page in the audit log
shows the trace id, so a slow or failed call can be followed from your traces to ours.

## Rate limits and quota
Every response carries \`X-Request-Id\`. Authenticated responses carry \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix seconds) for the key's per-minute limit, and
\`X-Quota-Limit\` / \`X-Quota-Remaining\` for the organization's monthly calls when its plan has a quota.
A key given a budget in the dashboard (requests per UTC day, week from Monday, or month) also carries
\`X-Key-Budget-Limit\`, \`X-Key-Budget-Remaining\` and \`X-Key-Budget-Reset\` (Unix seconds).
A \`429\` says which limit was hit (\`rate_limited\`, then \`key_budget_exceeded\`, then
\`monthly_quota_exceeded\`, in the order they are checked) and carries \`Retry-After\` (seconds).
Refused requests use neither the budget nor the quota.
`.trim();

export function registerRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKeyAuth", { type: "apiKey", in: "header", name: "X-API-Key" });
  registerSharedComponents(app);
  customerRoutes(app);
  productRoutes(app);
  invoiceRoutes(app);
  analyticsRoutes(app);
  pdfRoutes(app);
  usageRoutes(app);
  let document: string | undefined;
  app.get("/v1/openapi.json", (c) => {
    document ??= JSON.stringify(openApiDocument(app));
    return c.body(document, 200, { "Content-Type": "application/json; charset=UTF-8" });
  });
}

type OpenApiDocument = ReturnType<OpenAPIHono<ApiEnv>["getOpenAPI31Document"]>;
const documents = new WeakMap<OpenAPIHono<ApiEnv>, OpenApiDocument>();

/**
 * The app's OpenAPI document, built once per app on first use: building it walks every schema
 * (~110 KB of JSON). Served at /v1/openapi.json, and the MCP tools are read from it (lib/api/mcp/tools.ts).
 */
export function openApiDocument(app: OpenAPIHono<ApiEnv>): OpenApiDocument {
  let document = documents.get(app);
  if (!document) {
    document = app.getOpenAPI31Document(openApiConfig());
    documents.set(app, document);
  }
  return document;
}

function openApiConfig(): Parameters<OpenAPIHono<ApiEnv>["getOpenAPI31Document"]>[0] {
  return {
    openapi: "3.1.0",
    info: { title: "Invoicing API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/", "x-internal": false } as { url: string }],
    security: [{ ApiKeyAuth: [] }],
    tags: [
      { name: "Customers", description: "The people and companies you bill." },
      { name: "Products", description: "Your catalog: prices, tax rates and stock." },
      { name: "Invoices", description: "Drafts, finalized invoices, payments and voids." },
      { name: "Analytics", description: "Revenue, outstanding and overdue amounts, per currency." },
      { name: "PDF", description: "Invoices as PDF documents." },
    ],
  };
}
