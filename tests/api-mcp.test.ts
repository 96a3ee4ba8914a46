import { asc, eq } from "drizzle-orm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { getDb } from "@/db";
import { requestLog } from "@/db/schema";
import { mcpTools } from "@/lib/api/mcp/tools";
import { generateApiKey } from "@/lib/keys/format";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, PLANS } from "@/lib/plans/catalog";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";

// The gateway's clock, held still where a test compares one minute's counts.
let frozenAt: number | null = null;
const api = startApiServer({ clock: () => frozenAt ?? Date.now() });

interface Operation {
  operationId: string;
  method: string;
}
let document: { paths: Record<string, Record<string, { operationId: string }>> };
let operations: Operation[] = [];
beforeAll(async () => {
  document = (await (await fetch(api.url("/v1/openapi.json"))).json()) as typeof document;
  operations = Object.values(document.paths).flatMap((item) =>
    Object.entries(item).map(([method, operation]) => ({ method, operationId: operation.operationId })),
  );
});

/** An MCP client of the SDK, connected to /v1/mcp with the key, as an assistant connects. */
async function connect(key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "vitest-assistant", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(api.url("/v1/mcp")), { requestInit: { headers: { "X-API-Key": key, ...headers } } });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

async function logRows(orgId: string) {
  return getDb().select().from(requestLog).where(eq(requestLog.orgId, orgId)).orderBy(asc(requestLog.id));
}

async function customersOf(key: string): Promise<{ id: string; name: string }[]> {
  const response = await api.request("/v1/customers", { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string; name: string }[] }).data;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "8" } },
};

/** An initialize message sent by hand, so the test sees the HTTP answer itself. */
function initialize(key: string | undefined, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra };
  if (key !== undefined) headers["X-API-Key"] = key;
  return fetch(api.url("/v1/mcp"), { method: "POST", headers, body: JSON.stringify(INITIALIZE) });
}

describe("tools/list", () => {
  it("lists every operation of the document for a full-access key, each with a description and an object schema", async () => {
    const org = await createOrg("pro");
    const client = await connect((await insertKey(org.id)).value);
    const { tools } = await client.listTools();
    expect(operations).toHaveLength(21);
    expect(tools.map((tool) => tool.name).sort()).toEqual(operations.map((operation) => operation.operationId).sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description?.length).toBeGreaterThan(10);
    }
    // The path, query and body arguments side by side, as the document describes them.
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("createCustomer")!.inputSchema).toMatchObject({ required: ["name"], properties: { name: { type: "string" }, email: {} } });
    expect(Object.keys(byName.get("updateCustomer")!.inputSchema.properties!)).toEqual(expect.arrayContaining(["id", "name", "address"]));
    expect(byName.get("updateCustomer")!.inputSchema.required).toEqual(["id"]);
    expect(Object.keys(byName.get("listInvoices")!.inputSchema.properties!)).toEqual(expect.arrayContaining(["limit", "status", "customer"]));
    expect(JSON.stringify(tools)).not.toContain("$ref");
    // The endpoint is no operation of the document, which the SDK is generated from.
    expect(Object.keys(document.paths)).not.toContain("/v1/mcp");
  });

  it("lists only the GET operations for a read-only key", async () => {
    const org = await createOrg("pro");
    const client = await connect((await insertKey(org.id, { access: "read_only" })).value);
    const { tools } = await client.listTools();
    const reads = operations.filter((operation) => operation.method === "get").map((operation) => operation.operationId);
    expect(reads.length).toBeGreaterThan(5);
    expect(tools.map((tool) => tool.name).sort()).toEqual(reads.sort());
  });

  it("lists what a restricted key's permissions cover, resource by resource", async () => {
    const org = await createOrg("pro");
    const client = await connect((await insertKey(org.id, { access: "restricted", scopes: { customers: "write", invoices: "read", pdf: "generate" } })).value);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["listCustomers", "createCustomer", "getCustomer", "updateCustomer", "deleteCustomer", "listInvoices", "getInvoice", "generatePdf"].sort(),
    );
  });

  it("refuses to make tools of a document where one argument name would stand in two places", () => {
    const collide = {
      paths: {
        "/v1/things/{id}": {
          patch: {
            operationId: "updateThing",
            summary: "Update a thing",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            requestBody: { content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } } } },
          },
        },
      },
    };
    expect(() => mcpTools(collide)).toThrow(/two arguments named id/);
  });
});

describe("tools/call", () => {
  it("creates a customer as an API call of its own, counted and logged; the MCP messages count nothing", async () => {
    frozenAt = Date.now();
    onTestFinished(() => void (frozenAt = null));
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const client = await connect(key.value, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await client.listTools();

    const result = await call(client, "createCustomer", { name: "Jane Doe GmbH", email: "ap@janedoe.example", currency: "EUR" });
    expect(result.isError).toBeFalsy();
    const created = result.structuredContent as { id: string; name: string; livemode: boolean };
    expect(created).toMatchObject({ name: "Jane Doe GmbH", livemode: true });
    expect(JSON.parse(textOf(result))).toEqual(created);

    // It is there for the API, and the direct call is the second of the minute and of the month.
    const direct = await api.request(`/v1/customers/${created.id}`, { key: key.value });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toMatchObject({ id: created.id, name: "Jane Doe GmbH" });
    expect(direct.headers.get("x-ratelimit-remaining")).toBe(String(DEFAULT_RATE_LIMIT_PER_MINUTE - 2));
    expect(direct.headers.get("x-quota-remaining")).toBe(String(PLANS.pro.monthlyCalls! - 2));

    const rows = await logRows(org.id);
    expect(rows.map((row) => row.endpoint)).toEqual(["POST /v1/customers", "GET /v1/customers/{id}"]);
    expect(rows[0]).toMatchObject({ apiKeyId: key.id, status: 201, path: "/v1/customers", errorCode: null, ip: "127.0.0.1" });
    // The user agent names MCP and the client's own.
    expect(rows[0]!.userAgent).toMatch(/^MCP \(.+\)$/);
    expect(rows[0]!.traceId?.replaceAll("-", "")).toBe(traceId);
  });

  it("answers a call the key's access does not cover with the gateway's refusal as a tool error, and creates nothing", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id, { access: "read_only" });
    const client = await connect(key.value);
    const result = await call(client, "createCustomer", { name: "Jane Doe GmbH" });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: { code: string; message: string; request_id: string } };
    expect(error.code).toBe("api_key_scope_insufficient");
    expect(textOf(result)).toBe(`api_key_scope_insufficient: ${error.message} (request ${error.request_id})`);
    expect(await customersOf(key.value)).toEqual([]);
    // Refused, it is still an API call with its audit row.
    expect((await logRows(org.id))[0]).toMatchObject({ endpoint: "POST /v1/customers", status: 403, errorCode: "api_key_scope_insufficient" });
  });

  it("answers a bad argument with the route's validation_failed as a tool error, and creates nothing", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const client = await connect(key.value);
    const result = await call(client, "createCustomer", { name: "Jane Doe GmbH", email: "not an address" });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string; details: { path: string }[] } }).error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "email" }],
    });
    expect(textOf(result)).toMatch(/^validation_failed: .* \(request req_\w+\) email: /);
    expect(await customersOf(key.value)).toEqual([]);
  });

  it("answers an unknown tool with an MCP error", async () => {
    const org = await createOrg("pro");
    const client = await connect((await insertKey(org.id)).value);
    const refused = await call(client, "dropDatabase", {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining("Unknown tool: dropDatabase") });
  });

  it("creates a test-mode key's customer in test mode", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id, { mode: "test" });
    const result = await call(await connect(key.value), "createCustomer", { name: "Sandbox Ltd" });
    expect(result.structuredContent).toMatchObject({ name: "Sandbox Ltd", livemode: false });
  });

  it("returns generatePdf's document as an embedded PDF", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const customer = (await (
      await api.request("/v1/customers", { method: "POST", key: key.value, json: { name: "Jane Doe GmbH", currency: "EUR" } })
    ).json()) as {
      id: string;
    };
    const draft = await api.request("/v1/invoices", {
      method: "POST",
      key: key.value,
      json: { customer: customer.id, lines: [{ description: "Espresso machine", quantity: 1, unit_amount: 99900, tax_rate: 19 }] },
    });
    const invoice = (await draft.json()) as { id: string };
    const result = await call(await connect(key.value), "generatePdf", { invoice: invoice.id });
    expect(result.isError).toBeFalsy();
    const file = result.content.find((block) => block.type === "resource");
    expect(file?.resource).toMatchObject({ mimeType: "application/pdf" });
    const blob = file!.resource as { blob: string };
    expect(Buffer.from(blob.blob, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});

describe("the MCP messages' key", () => {
  it.each([
    ["missing", () => Promise.resolve(undefined), 401, "api_key_missing"],
    ["malformed", () => Promise.resolve("not-a-key"), 401, "api_key_invalid"],
    ["unknown", () => Promise.resolve(generateApiKey()), 401, "api_key_invalid"],
    ["revoked", async () => (await insertKey((await createOrg("pro")).id, { revoked: true })).value, 401, "api_key_revoked"],
    ["expired", async () => (await insertKey((await createOrg("pro")).id, { expiresAt: new Date(Date.now() - 60_000) })).value, 401, "api_key_expired"],
    ["off its IP allowlist", async () => (await insertKey((await createOrg("pro")).id, { ipAllowlist: ["203.0.113.10"] })).value, 403, "ip_not_allowed"],
    ["on a plan without API access", async () => (await insertKey((await createOrg("solo")).id)).value, 403, "plan_no_api_access"],
  ])("refuses a %s key with the API's error body", async (_label, keyOf, status, code) => {
    const response = await initialize(await keyOf());
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { code: string; request_id: string } };
    expect(body.error).toMatchObject({ code, request_id: response.headers.get("x-request-id") });
  });

  it("answers initialize for a good key and writes no audit row for it", async () => {
    const org = await createOrg("pro");
    // An Idempotency-Key is the API's, for its calls: the MCP message is none.
    const response = await initialize((await insertKey(org.id)).value, { "Idempotency-Key": "retry-1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "invoicing" }, capabilities: { tools: {} } } });
    expect(await logRows(org.id)).toEqual([]);
  });

  it("answers GET and DELETE with 405: no session, no stream", async () => {
    const org = await createOrg("pro");
    const key = (await insertKey(org.id)).value;
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(api.url("/v1/mcp"), { method, headers: { "X-API-Key": key, Accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });
});
