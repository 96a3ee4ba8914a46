import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { convertV2, type Options } from "openapi-to-postmanv2";

// The Postman collection of /v1, converted by Postman's own converter from the OpenAPI document the
// API serves, when `npm run build` builds Next.js (scripts/build.mjs), and served by /docs
// (docs/features/api.md, "Postman collection"). A build-time module: openapi-to-postmanv2 is a
// development dependency, and nothing that runs in production imports this.

/** What `npm start` and `npm run dev` listen on; a client of a deployment sets its own origin. */
export const DEFAULT_BASE_URL = "http://localhost:3000";

/** The parts of a Postman Collection v2.1 (schema.getpostman.com/json/collection/v2.1.0) this module and its tests read. */
export interface PostmanCollection {
  info: { _postman_id?: string; name: string; schema: string };
  item: PostmanFolder[];
  auth?: PostmanAuth;
  variable?: PostmanVariable[];
}
export interface PostmanFolder {
  name: string;
  item: (PostmanItem | PostmanFolder)[];
}
export interface PostmanItem {
  id?: string;
  name: string;
  request: PostmanRequest;
  response?: { id?: string; code?: number }[];
}
export interface PostmanRequest {
  method: string;
  url: { host: string[]; path: string[]; query?: { key: string; value: string }[]; variable?: { key: string; value: string }[] };
  header?: { key: string; value: string; disabled?: boolean }[];
  body?: { mode: string; raw?: string };
  auth?: PostmanAuth | null;
}
export interface PostmanAuth {
  type: string;
  apikey?: { key: string; value: string }[];
}
export interface PostmanVariable {
  key: string;
  value: string;
  description?: string;
}

type Parameter = { example?: unknown; schema?: { example?: unknown } };
type Operation = { parameters?: Parameter[] };
/** The parts of an OpenAPI 3.1 document the conversion reads or adjusts. */
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

/**
 * Everything the converter can be told (OPTIONS.md of openapi-to-postmanv2): a folder per tag;
 * values from the document's examples; the key in a collection variable on the collection's auth
 * (the document's ApiKeyAuth: X-API-Key in a header, as {{apiKey}}), which every request inherits
 * and no saved example repeats; optional query parameters and headers listed but unticked, so
 * "List invoices" lists them all until one is ticked.
 */
const OPTIONS: Options = {
  folderStrategy: "Tags",
  parametersResolution: "Example",
  requestNameSource: "Fallback",
  alwaysInheritAuthentication: true,
  includeAuthInfoInExample: false,
  enableOptionalParameters: false,
  includeWebhooks: false,
};

/**
 * The converter fakes what the document leaves open (which branch of a nullable field, which enum
 * value of a response) with json-schema-faker, which draws from Math.random and offers no option
 * of the converter's to seed it. json-schema-faker's own `random` option (one instance, shared
 * with the converter) takes a seeded generator, so each build writes the same file and a served
 * collection can be compared with a fresh one. A seeded generator rather than a constant, which
 * would never leave the faker's loops that draw until a value fits (a `not: { enum }` schema).
 */
const jsonSchemaFaker = createRequire(import.meta.url)("openapi-to-postmanv2/assets/json-schema-faker.js") as {
  option(options: { random: () => number }): void;
};

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A copy of the document for the converter: a parameter's schema-level example also as the
 * parameter's own `example` (OpenAPI's Parameter Object has both). The converter resolves an
 * anyOf schema before it looks for the example, which loses it (GET /v1/usage's `from` and `to`),
 * and fakes a date from the clock instead; the parameter's own it reads first.
 */
function forConversion(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  for (const operations of Object.values(copy.paths))
    for (const operation of Object.values(operations))
      for (const parameter of operation.parameters ?? [])
        if (parameter.example === undefined && parameter.schema?.example !== undefined) parameter.example = parameter.schema.example;
  return copy;
}

function convert(document: OpenApiDocument): Promise<PostmanCollection> {
  jsonSchemaFaker.option({ random: seededRandom(1) });
  return new Promise((resolve, reject) => {
    convertV2({ type: "json", data: forConversion(document) }, OPTIONS, (error, result) => {
      if (error) return reject(new Error(`openapi-to-postmanv2 failed: ${error.message}`, { cause: error }));
      const collection = result?.result ? result.output?.[0]?.data : undefined;
      if (!collection) return reject(new Error(`openapi-to-postmanv2 made no collection: ${result?.reason ?? "no reason given"}`, { cause: result?.error }));
      resolve(collection as PostmanCollection);
    });
  });
}

/** A UUID-shaped id from a name: the same name, the same id in every build. */
function stableId(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The requests among folders, however deep. */
export function requestsOf(entries: (PostmanItem | PostmanFolder)[]): PostmanItem[] {
  return entries.flatMap((entry) => ("request" in entry ? [entry] : requestsOf(entry.item)));
}

/**
 * What no option of the converter sets:
 * - its ids are random UUIDs, new in every conversion; Postman uses them only to match a
 *   re-imported collection with the one imported before, which stable ids let it do;
 * - `baseUrl` is the document's server, "/" (the API answers on whatever host serves it), and
 *   Postman needs an origin: the local one, to be changed for a deployment;
 * - it puts {{apiKey}} in the collection's auth without declaring the variable: declared empty,
 *   with what to put in it (never a key of ours).
 */
function postProcess(collection: PostmanCollection): PostmanCollection {
  collection.info._postman_id = stableId(`collection ${collection.info.name}`);
  for (const item of requestsOf(collection.item)) {
    const operation = `${item.request.method} /${item.request.url.path.join("/")}`;
    item.id = stableId(operation);
    item.response?.forEach((response, index) => (response.id = stableId(`${operation} response ${index}`)));
  }
  const variables = (collection.variable ?? []).filter((variable) => variable.key !== "baseUrl" && variable.key !== "apiKey");
  collection.variable = [
    {
      key: "baseUrl",
      value: DEFAULT_BASE_URL,
      description: `The service's origin, without a trailing slash: your deployment's, or ${DEFAULT_BASE_URL} locally.`,
    },
    { key: "apiKey", value: "", description: "An API key of your organization (ik_… live, ik_test_… test), from Settings › API keys. Sent as X-API-Key." },
    ...variables,
  ];
  return collection;
}

/** The collection of the document's operations. */
export async function postmanCollection(document: OpenApiDocument): Promise<PostmanCollection> {
  return postProcess(await convert(document));
}

/** The file as built and served: compact JSON (half the size of indented; Postman reads either). */
export async function postmanCollectionJson(document: OpenApiDocument): Promise<string> {
  return `${JSON.stringify(await postmanCollection(document))}\n`;
}
