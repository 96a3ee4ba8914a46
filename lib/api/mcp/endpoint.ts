import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { findKeyStanding, type KeyStanding } from "@/db/queries/gateway";
import { hashApiKey } from "@/lib/keys/format";
import { normalizeClientIp } from "@/lib/keys/ip-allowlist";
import type { ApiEnv } from "../env";
import { admitStanding, clientIp, presentedKey, unknownKey } from "../gateway";
import { openApiDocument } from "../routes";
import type { InnerCall } from "./dispatch";
import { mcpTools, type McpTool } from "./tools";

/** The MCP endpoint (docs/features/mcp.md); the app keeps the gateway off it, as this checks the key itself. */
export const MCP_PATH = "/v1/mcp";

/**
 * The key of an MCP message, refused as the gateway refuses it (the same 401 and 403 bodies) but
 * read only: initialize, tools/list and the rest are no API calls, so they count toward no limit
 * and get no audit row. Access decides which tools are listed, not whether the message is answered.
 */
async function mcpKey(c: Context<ApiEnv>): Promise<{ presented: string; standing: KeyStanding }> {
  const presented = presentedKey(c.req.header("x-api-key"), (error) => error);
  const ip = normalizeClientIp(clientIp(c));
  const standing = await findKeyStanding(hashApiKey(presented), new Date(c.get("receivedAt")), ip);
  if (!standing) throw unknownKey(presented);
  admitStanding(c, standing, ip);
  return { presented, standing };
}

/**
 * What a tool call carries over from the MCP request. The forwarded address, so that behind
 * proxies of ours (TRUST_PROXY) the gateway reads the same client as for the MCP request. The user
 * agent names MCP and the client's own agent: initialize's client name is not known here, as each
 * message of a stateless server comes in a request of its own.
 */
function innerCall(app: OpenAPIHono<ApiEnv>, c: Context<ApiEnv>, presented: string): InnerCall {
  const agent = c.req.header("user-agent");
  const headers: Record<string, string> = { "X-API-Key": presented, "User-Agent": agent ? `MCP (${agent})` : "MCP" };
  for (const name of ["traceparent", "x-forwarded-for"]) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return { fetch: (request) => app.fetch(request, c.env), origin: new URL(c.req.url).origin, headers };
}

/**
 * POST /v1/mcp: MCP's streamable HTTP transport, stateless and answering in JSON (every tool
 * answers at once). Any other method is 405: the spec's answer of a server without sessions or a
 * stream to open.
 */
export function mcpEndpoint(app: OpenAPIHono<ApiEnv>): void {
  // Read from the document on first use, as the document itself is built.
  let tools: Map<string, McpTool> | undefined;
  app.all(MCP_PATH, async (c) => {
    if (c.req.method !== "POST") {
      // A JSON-RPC error without an id, as the SDK's transport answers a method it does not take.
      return c.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: send MCP messages with POST." }, id: null }, 405, { Allow: "POST" });
    }
    const { presented, standing } = await mcpKey(c);
    tools ??= mcpTools(openApiDocument(app));
    // The MCP SDK loads with the first message, not with every process that serves /v1: it takes
    // about 200 ms to load, which every server start and API test file paid (docs/testing.md#ci).
    const { answerMcp } = await import("./server");
    return answerMcp(c, tools, standing, innerCall(app, c, presented));
  });
}
