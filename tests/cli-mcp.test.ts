import path from "node:path";
import { eq } from "drizzle-orm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { getDb } from "@/db";
import { requestLog } from "@/db/schema";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";

const api = startApiServer();
const BIN = path.resolve(import.meta.dirname, "../packages/cli/bin/invoicing.js");

/** `invoicing mcp` started as an assistant starts it, with the MCP SDK's own stdio client. */
async function overStdio(key: string, errors: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", INVOICING_API_KEY: key, INVOICING_BASE_URL: api.base },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
  const client = new Client({ name: "vitest-assistant", version: "1.0.0" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

describe("invoicing mcp (stdio)", () => {
  it("lists the key's tools and calls them through /v1/mcp, each call in the audit log with its endpoint", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const client = await overStdio(key.value);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(21);
    expect(tools.find((tool) => tool.name === "createCustomer")?.inputSchema.properties).toHaveProperty("name");

    const result = (await client.callTool({ name: "createCustomer", arguments: { name: "Over Stdio Ltd", currency: "GBP" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const created = result.structuredContent as { id: string; name: string };
    expect(created).toMatchObject({ object: "customer", name: "Over Stdio Ltd" });
    const rows = await getDb().select().from(requestLog).where(eq(requestLog.orgId, org.id));
    expect(rows.map((row) => [row.endpoint, row.status, row.apiKeyId])).toEqual([["POST /v1/customers", 201, key.id]]);
  });

  it("shows a read-only key its read tools only, and returns a refused write as a tool error", async () => {
    const org = await createOrg("pro");
    const client = await overStdio((await insertKey(org.id, { access: "read_only" })).value);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["getAnalytics", "getCustomer", "getInvoice", "getProduct", "listCustomers", "listInvoices", "listProducts", "listUsage"].sort(),
    );
    const refused = (await client.callTool({ name: "createCustomer", arguments: { name: "Nope", currency: "EUR" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/api_key_scope_insufficient/);
  });

  it("ends with one line naming the refusal when the key is refused", async () => {
    const org = await createOrg("pro");
    const errors: string[] = [];
    await expect(overStdio((await insertKey(org.id, { revoked: true })).value, errors)).rejects.toThrow();
    await expect.poll(() => errors.join("")).toMatch(/^Error: This API key has been revoked\. .* \(api_key_revoked, request req_\w+\)\n$/);
  });
});
