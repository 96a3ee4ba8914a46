/** A JSON Schema object as the OpenAPI 3.1 document writes it. */
export type JsonSchema = Record<string, unknown>;

/** Keywords whose value is data, never a schema: copied as they are, whatever keys an object in them has. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);
/** Keywords whose value maps names (of properties, of definitions) to schemas. */
const MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);

export function isJsonObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The schema with every `#/components/schemas/…` reference replaced by the component it names,
 * so an MCP tool's input schema stands alone (a client has no document to resolve a `$ref` in).
 * OpenAPI's `example` becomes JSON Schema's `examples`. The keywords beside a `$ref` (a
 * description) are kept over the component's own. A reference to a missing component, or one
 * that refers to itself, cannot stand alone and is a programming error.
 */
export function inlineSchema(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  // An object in is an object out: a component or the schema's own keywords.
  return inlineRefs(schema, components, []) as JsonSchema;
}

function inlineRefs(schema: unknown, components: Record<string, JsonSchema>, trail: readonly string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, components, trail));
  if (!isJsonObject(schema)) return schema;
  const { $ref, example, ...rest } = schema;
  if (typeof $ref === "string") {
    const name = $ref.replace(/^#\/components\/schemas\//, "");
    const component = components[name];
    if (!component || trail.includes(name))
      throw new Error(`The schema reference ${$ref} cannot be inlined (${component ? "it refers to itself" : "no such component"}).`);
    return inlineRefs({ ...component, ...rest }, components, [...trail, name]);
  }
  const inlined: JsonSchema = {};
  for (const [keyword, value] of Object.entries(rest)) {
    if (DATA_KEYWORDS.has(keyword)) inlined[keyword] = value;
    else if (MAP_KEYWORDS.has(keyword) && isJsonObject(value)) {
      inlined[keyword] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, inlineRefs(entry, components, trail)]));
    } else inlined[keyword] = inlineRefs(value, components, trail);
  }
  if (example !== undefined && inlined.examples === undefined) inlined.examples = [example];
  return inlined;
}
