import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject } from "./json-schema";
import type { McpTool } from "./tools";

/** Where a tool call is sent: the /v1 app itself, so the gateway admits, counts and logs it like any request. */
export interface InnerCall {
  fetch: (request: Request) => Response | Promise<Response>;
  /** The MCP request's origin: the call's URL, as its audit row keeps it, is the operation's. */
  origin: string;
  /** What the call carries over from the MCP request: the key, the trace, the client's address and agent. */
  headers: Record<string, string>;
}

function queryValue(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * The HTTP request of a tool call: its arguments split back into the path, the query and the JSON
 * body the tool was made from (lib/api/mcp/tools.ts). An argument of no place goes where the route
 * refuses unknown names (the body, or else the query), so the route's own validation answers it.
 * A path argument missing or not a string or number leaves no URL to send: an MCP error.
 */
export function toolRequest(tool: McpTool, args: Record<string, unknown>, call: InnerCall): Request {
  let path = tool.path;
  for (const name of tool.pathArgs) {
    const value = args[name];
    if ((typeof value !== "string" && typeof value !== "number") || value === "") {
      throw new McpError(ErrorCode.InvalidParams, `The tool ${tool.definition.name} needs the argument ${name} (a string).`);
    }
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (tool.pathArgs.includes(name)) continue;
    if (tool.bodyArgs && !tool.queryArgs.includes(name)) body[name] = value;
    // An absent query parameter is how the API spells "no filter"; the body keeps null, which clears a field.
    else if (value !== undefined && value !== null) for (const item of Array.isArray(value) ? value : [value]) query.append(name, queryValue(item));
  }
  const url = new URL(query.size > 0 ? `${path}?${query}` : path, call.origin);
  const headers = new Headers(call.headers);
  if (!tool.bodyArgs) return new Request(url, { method: tool.method, headers });
  headers.set("Content-Type", "application/json");
  return new Request(url, { method: tool.method, headers, body: JSON.stringify(body) });
}

/** "validation_failed: The request is not valid: see details. (request req_…) email: Invalid email address" */
function errorLine(error: Record<string, unknown>): string {
  const line = `${String(error.code)}: ${String(error.message)} (request ${String(error.request_id)})`;
  const details = Array.isArray(error.details) ? error.details.filter(isJsonObject) : [];
  return details.length === 0 ? line : `${line} ${details.map((detail) => `${String(detail.path)}: ${String(detail.message)}`).join("; ")}`;
}

/** A file the API answered with (the invoice PDF): embedded as a resource, with a line naming it for a client that shows text only. */
async function fileResult(response: Response, mimeType: string): Promise<CallToolResult> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "file";
  return {
    content: [
      { type: "text", text: `${filename} (${mimeType}, ${bytes.length} bytes)` },
      { type: "resource", resource: { uri: `invoicing://files/${encodeURIComponent(filename)}`, mimeType, blob: bytes.toString("base64") } },
    ],
  };
}

/**
 * The tool result of the API's answer: a 2xx JSON answer as its text, and as structured content
 * when it is an object; a file as an embedded resource; an error as a tool error (`isError`, so the
 * assistant sees it and can correct its call) with one line of text and the API's error body.
 */
export async function toolResult(response: Response): Promise<CallToolResult> {
  const mimeType = (response.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim();
  if (response.ok && mimeType !== "application/json") return fileResult(response, mimeType);
  const text = await response.text();
  const body: unknown = mimeType === "application/json" ? JSON.parse(text) : null;
  if (response.ok) return { content: [{ type: "text", text }], ...(isJsonObject(body) ? { structuredContent: body } : {}) };
  if (!isJsonObject(body) || !isJsonObject(body.error)) return { isError: true, content: [{ type: "text", text: `HTTP ${response.status}: ${text}` }] };
  return { isError: true, content: [{ type: "text", text: errorLine(body.error) }], structuredContent: body };
}
