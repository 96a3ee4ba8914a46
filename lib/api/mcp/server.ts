import type { Context } from "hono";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { KeyStanding } from "@/db/queries/gateway";
import { log } from "@/core/log";
import type { ApiEnv } from "../env";
import { toolRequest, toolResult, type InnerCall } from "./dispatch";
import { toolsFor, type McpTool } from "./tools";

/** The MCP server behind POST /v1/mcp (docs/features/mcp.md), loaded by lib/api/mcp/endpoint.ts on the first message. */

const INSTRUCTIONS =
  "The Invoicing API of your organization: each tool is one /v1 operation, called with your API key. Money is an integer in the currency's minor unit (cents for EUR and USD); ids carry their type (cus_, prod_, in_); lists come a page at a time (pass next_cursor as starting_after).";

/** A server for one HTTP request, as the SDK's stateless mode has it: the key's tools, and calls through the app. */
function mcpServer(c: Context<ApiEnv>, tools: Map<string, McpTool>, standing: KeyStanding, call: InnerCall): McpServer {
  const server = new McpServer({ name: "invoicing", version: "1.0.0" }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  // The low-level handlers (the SDK's way for tools it does not define by zod): the list depends on
  // the key, and a call's arguments are left to the route's own validation.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsFor(tools, standing.access, standing.scopes) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    // Among all the tools, not the key's: one it cannot see is still sent, and the gateway's refusal is its answer.
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await toolResult(await call.fetch(toolRequest(tool, request.params.arguments ?? {}, call)));
    } catch (error) {
      if (!(error instanceof McpError))
        log.error({ err: error, requestId: c.get("requestId"), traceId: c.get("traceId"), tool: tool.definition.name }, "MCP tool call failed");
      throw error;
    }
  });
  return server;
}

/** One MCP message's answer: the SDK's streamable HTTP transport, stateless and answering in JSON. */
export async function answerMcp(c: Context<ApiEnv>, tools: Map<string, McpTool>, standing: KeyStanding, call: InnerCall): Promise<Response> {
  const server = mcpServer(c, tools, standing, call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}
