import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { InvoicingError, SDK_VERSION, type ApiErrorCode } from "@invoicing/sdk";

/** The API's refusal of the connection (a revoked key, say) as the error every other command reports, else the error as it came. */
function refusalOf(error: unknown): unknown {
  if (!(error instanceof StreamableHTTPError)) return error;
  // The transport puts the answer's body after this text in its message.
  const body = /Error POSTing to endpoint: (\{[\s\S]*\})$/.exec(error.message)?.[1];
  try {
    const refusal = (JSON.parse(body ?? "null") as { error?: { code: ApiErrorCode; message: string; request_id?: string } } | null)?.error;
    if (refusal)
      return new InvoicingError(refusal.message, { status: error.code ?? null, code: refusal.code, requestId: refusal.request_id }, { cause: error });
  } catch {
    // Not the API's JSON (a proxy's page, say): the transport's own message says what came.
  }
  return error;
}

/**
 * `invoicing mcp`: an MCP server on stdin/stdout for assistants that start their tools as
 * processes, passing each message on to the API's own MCP server at /v1/mcp with the key
 * (docs/features/cli.md#mcp). The tools, what the key may see and do, the limits and the audit
 * log are the API's: this process adds none of its own.
 */
export async function serveMcpOverStdio(connection: { apiKey: string; baseUrl: string }): Promise<number> {
  const remote = new Client({ name: "invoicing-cli", version: SDK_VERSION });
  const transport = new StreamableHTTPClientTransport(new URL("/v1/mcp", connection.baseUrl), {
    requestInit: { headers: { "X-API-Key": connection.apiKey, "User-Agent": `invoicing-cli/${SDK_VERSION}` } },
  });
  await remote.connect(transport).catch((error: unknown) => {
    throw refusalOf(error);
  });
  const local = new Server(
    { name: "invoicing", version: SDK_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: remote.getInstructions() },
  );
  local.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  local.setRequestHandler(CallToolRequestSchema, (request) => remote.callTool(request.params));
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
  });
  await local.connect(new StdioServerTransport());
  await closed;
  await remote.close();
  return 0;
}
