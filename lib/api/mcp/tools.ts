import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { KeyAccess, KeyScopes } from "@/core/enums";
import { accessCovers } from "@/lib/keys/access";
import { inlineSchema, isJsonObject, type JsonSchema } from "./json-schema";

/** One /v1 operation as an MCP tool (docs/features/mcp.md#tools): what tools/list shows, and where each argument goes. */
export interface McpTool {
  definition: Tool;
  method: string;
  /** The path template, "/v1/customers/{id}". */
  path: string;
  pathArgs: readonly string[];
  queryArgs: readonly string[];
  /** The body's fields, or null for an operation without a body. */
  bodyArgs: readonly string[] | null;
}

const SchemaObject = z.record(z.string(), z.unknown());
/** What the tools read of the OpenAPI document; anything else in it is left alone. */
const Operation = z.object({
  operationId: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  parameters: z
    .array(z.object({ name: z.string(), in: z.string(), required: z.boolean().optional(), description: z.string().optional(), schema: SchemaObject }))
    .optional(),
  requestBody: z.object({ content: z.record(z.string(), z.object({ schema: SchemaObject })) }).optional(),
});
const Document = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), SchemaObject).optional() }).optional(),
});
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

type Place = "path" | "query" | "body";

/**
 * The tool of one operation. Its input schema is one object: the path and query parameters and the
 * body's fields side by side, each as the document describes it (descriptions and examples
 * included, which an assistant reads), so no name may stand in two places. Headers are no
 * arguments: `Idempotency-Key` guards a client's retries of one request, and an assistant's
 * second tool call is a new request.
 */
function toolOf(method: string, path: string, operation: z.infer<typeof Operation>, components: Record<string, JsonSchema>): McpTool {
  const name = operation.operationId;
  const places = new Map<string, Place>();
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (arg: string, schema: unknown, isRequired: boolean, place: Place) => {
    const earlier = places.get(arg);
    if (earlier) throw new Error(`The MCP tool ${name} would have two arguments named ${arg}: a ${earlier} one and a ${place} one.`);
    if (!isJsonObject(schema)) throw new Error(`The MCP tool ${name}'s argument ${arg} has no schema object.`);
    places.set(arg, place);
    properties[arg] = schema;
    if (isRequired) required.push(arg);
  };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    const schema = inlineSchema(parameter.description ? { ...parameter.schema, description: parameter.description } : parameter.schema, components);
    add(parameter.name, schema, parameter.in === "path" || parameter.required === true, parameter.in);
  }
  let bodyArgs: string[] | null = null;
  if (operation.requestBody) {
    const schema = operation.requestBody.content["application/json"]?.schema;
    const body = schema ? inlineSchema(schema, components) : null;
    if (!body || body.type !== "object" || !isJsonObject(body.properties)) {
      throw new Error(`The MCP tool ${name} needs a JSON object body to spread into its arguments.`);
    }
    const requiredFields = new Set(Array.isArray(body.required) ? body.required : []);
    bodyArgs = Object.keys(body.properties);
    for (const field of bodyArgs) add(field, body.properties[field], requiredFields.has(field), "body");
  }
  const upper = method.toUpperCase();
  const argsIn = (place: Place) => [...places].filter(([, at]) => at === place).map(([arg]) => arg);
  return {
    definition: {
      name,
      title: operation.summary,
      description: `${operation.summary} (\`${upper} ${path}\`).${operation.description ? `\n\n${operation.description}` : ""}`,
      inputSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
      annotations: { title: operation.summary, readOnlyHint: upper === "GET", openWorldHint: false },
    },
    method: upper,
    path,
    pathArgs: argsIn("path"),
    queryArgs: argsIn("query"),
    bodyArgs,
  };
}

/**
 * Every operation of the served OpenAPI document as a tool, by name (its operationId). The
 * document, not the zod schemas, because it carries what an assistant needs to call well (each
 * field's description and example), and is what the SDK and the reference are made from; the
 * route validates the arguments with its own zod schemas when the call arrives.
 */
export function mcpTools(document: unknown): Map<string, McpTool> {
  const { paths, components } = Document.parse(document);
  const tools = new Map<string, McpTool>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const tool = toolOf(method, path, Operation.parse(operation), components?.schemas ?? {});
      if (tools.has(tool.definition.name)) throw new Error(`Two operations are named ${tool.definition.name}: MCP tools need unique names.`);
      tools.set(tool.definition.name, tool);
    }
  }
  return tools;
}

/** The tools a key's access covers (lib/keys/access.ts): all that tools/list shows it. */
export function toolsFor(tools: Map<string, McpTool>, access: KeyAccess, scopes: KeyScopes): Tool[] {
  return [...tools.values()].filter((tool) => accessCovers(access, scopes, tool.method, tool.path)).map((tool) => tool.definition);
}
