import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { requestLog } from "@/db/schema";
import { API_ERRORS } from "@/lib/api/errors";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, OpenApiContract, servedContract, type Exchange } from "./helpers/api-contract";
import { createOrg, insertKey } from "./helpers/factories";

// The gateway's clock, held still where a test's requests must fall in one rate-limit minute.
let frozenAt: number | null = null;
const api = contractApi({ clock: () => frozenAt ?? Date.now() });
type Doc = {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown>; headers: Record<string, unknown> };
  security: unknown[];
};
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
};

let doc: Doc;

beforeAll(async () => {
  const response = await fetch(api.url("/v1/openapi.json"));
  expect(response.status).toBe(200);
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  doc = (await response.json()) as Doc;
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

describe("the OpenAPI document at /v1/openapi.json", () => {
  it("is OpenAPI 3.1, served without a key, with the X-API-Key security scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.security).toEqual([{ ApiKeyAuth: [] }]);
  });

  it("describes every operation of the six path families", () => {
    expect(
      operations()
        .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
        .sort(),
    ).toEqual(
      [
        "GET /v1/customers",
        "POST /v1/customers",
        "GET /v1/customers/{id}",
        "PATCH /v1/customers/{id}",
        "DELETE /v1/customers/{id}",
        "GET /v1/products",
        "POST /v1/products",
        "GET /v1/products/{id}",
        "PATCH /v1/products/{id}",
        "POST /v1/products/{id}/archive",
        "GET /v1/invoices",
        "POST /v1/invoices",
        "GET /v1/invoices/{id}",
        "PATCH /v1/invoices/{id}",
        "DELETE /v1/invoices/{id}",
        "POST /v1/invoices/{id}/finalize",
        "POST /v1/invoices/{id}/pay",
        "POST /v1/invoices/{id}/void",
        "GET /v1/analytics",
        "POST /v1/pdf/generate",
        "GET /v1/usage",
      ].sort(),
    );
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives every operation the gateway's refusals and the rate-limit headers", () => {
    for (const { operation, path, method } of operations()) {
      const where = `${method} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags, where).toHaveLength(1);
      expect(operation.responses["401"], where).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(operation.responses["403"], where).toEqual({ $ref: "#/components/responses/Forbidden" });
      expect(operation.responses["429"], where).toEqual({ $ref: "#/components/responses/TooManyRequests" });
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))![1];
      expect(Object.keys(success.headers ?? {}), where).toEqual(
        expect.arrayContaining(["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining"]),
      );
      if (operation.requestBody) expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(["400", "413", "415"]));
    }
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["Retry-After", "X-Request-Id"]));
  });

  it("names every error code the API answers with", () => {
    const codes = new Set<string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === "code" && value && typeof value === "object" && "enum" in value) for (const code of (value as { enum: string[] }).enum) codes.add(code);
      return value;
    });
    // An unknown path has no route to describe it: the description names its code instead.
    const expected = Object.keys(API_ERRORS).filter((code) => code !== "route_not_found");
    expect([...codes].sort()).toEqual(expect.arrayContaining(expected.sort()));
    expect(doc.info.description).toContain("`404 route_not_found`");
  });

  it("states the rounding rule, the list envelope and the limits", () => {
    expect(doc.info.description).toContain("rounded **half up** to a whole minor unit, **per line**");
    expect(doc.info.description).toContain('{ "object": "list", "data": [...], "has_more": true, "next_cursor": "cus_…" }');
    expect(doc.info.description).toContain("limited to 1 MiB");
    expect(doc.components.schemas).toHaveProperty("CustomerList");
  });
});

describe("the contract check", () => {
  let contract: OpenApiContract;
  let customer: Exchange;

  beforeAll(async () => {
    contract = await servedContract(api);
    const { call } = await apiClient(api);
    const response = await call("/v1/customers", { method: "POST", json: { name: "Contract" } });
    customer = {
      method: "POST",
      path: "/v1/customers",
      requestBody: { name: "Contract" },
      status: 201,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  });

  it("accepts a response the document describes", () => {
    expect(contract.problems(customer)).toEqual([]);
  });

  it("finds a body, a status, a header or a path the document does not describe", () => {
    const withBody = (body: unknown) => ({ ...customer, body: Buffer.from(JSON.stringify(body)) });
    const created = JSON.parse(customer.body.toString()) as Record<string, unknown>;
    const headers = new Headers(customer.headers);
    headers.delete("x-ratelimit-limit");
    const cases: [string, Exchange][] = [
      ["a missing field", withBody({ ...created, name: undefined })],
      ["an extra error code", { ...customer, status: 400, body: Buffer.from(JSON.stringify({ error: { code: "teapot", message: "", request_id: "req_1" } })) }],
      ["a wrong type", withBody({ ...created, created_at: 17 })],
      ["an undocumented status", { ...customer, status: 418 }],
      ["a missing header", { ...customer, headers }],
      ["an unknown path", { ...customer, path: "/v1/teapots" }],
      ["a request the schema refuses", { ...customer, requestBody: { name: "A", colour: "red" } }],
    ];
    for (const [label, exchange] of cases) expect(contract.problems(exchange), label).not.toEqual([]);
  });
});

describe("the gateway's answers, as documented", () => {
  it("answers without a key, with a revoked key and on a plan without API access", async () => {
    const solo = await createOrg("solo");
    const revoked = await insertKey((await createOrg("pro")).id, { revoked: true });
    expect((await errorOf(await api.request("/v1/customers"))).code).toBe("api_key_missing");
    expect((await errorOf(await api.request("/v1/products", { key: revoked.value }))).code).toBe("api_key_revoked");
    expect((await errorOf(await api.request("/v1/invoices", { key: (await insertKey(solo.id)).value }))).code).toBe("plan_no_api_access");
  });

  it("answers past the rate limit with 429 and Retry-After", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 2 });
    const { value } = await insertKey(org.id);
    const responses = [];
    // In one minute: three requests that straddled a minute's edge were all admitted (seen once).
    frozenAt = Date.now();
    try {
      for (let i = 0; i < 3; i++) responses.push(await api.request("/v1/analytics", { key: value }));
    } finally {
      frozenAt = null;
    }
    const limited = responses[2]!;
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("logs each call under its route template", async () => {
    const { org, call } = await apiClient(api);
    await call("/v1/invoices/in_unknown/finalize", { method: "POST" });
    await call("/v1/customers/cus_unknown");
    await call("/v1/pdf/generate", { method: "POST", json: { invoice: "in_unknown" } });
    const rows = await getDb().select({ endpoint: requestLog.endpoint, status: requestLog.status }).from(requestLog).where(eq(requestLog.orgId, org.id));
    expect(rows.map((row) => `${row.endpoint} ${row.status}`).sort()).toEqual([
      "GET /v1/customers/{id} 404",
      "POST /v1/invoices/{id}/finalize 404",
      "POST /v1/pdf/generate 404",
    ]);
  });
});

itMatchesTheDocument(api, 10);
