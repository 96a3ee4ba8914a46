import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import {
  postmanCollection,
  postmanCollectionJson,
  requestsOf,
  type OpenApiDocument,
  type PostmanCollection,
  type PostmanItem,
} from "@/lib/api/postman-collection";
import { API_KEY_PATTERN } from "@/lib/keys/format";
import { buildPostmanCollection } from "@/scripts/build-postman-collection.mjs";

// The Postman collection /docs serves is converted from the document /v1/openapi.json serves
// (docs/features/api.md, "Postman collection"): held here against that document, not against a
// list of our own, so an operation added to the API is one the collection must carry.
type DocumentOperation = { tags?: string[]; requestBody?: { content: Record<string, unknown> } };
type FullDocument = OpenApiDocument & {
  info: { title: string };
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
};

const root = path.resolve(import.meta.dirname, "../..");
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

let document: FullDocument;
let collection: PostmanCollection;
let requests: { folder: string; item: PostmanItem }[];

beforeAll(async () => {
  document = (await (await createApiApp().request("/v1/openapi.json")).json()) as FullDocument;
  collection = await postmanCollection(document);
  requests = collection.item.flatMap((folder) => requestsOf(folder.item).map((item) => ({ folder: folder.name, item })));
});

const documentOperations = () =>
  Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), route, operation })),
  );

/** A request's path as the document writes it: Postman's `:id` is OpenAPI's `{id}`. */
const documentPath = (item: PostmanItem) => `/${item.request.url.path.map((segment) => segment.replace(/^:(.+)$/, "{$1}")).join("/")}`;

const requestOf = (method: string, route: string) => requests.find(({ item }) => item.request.method === method && documentPath(item) === route)?.item;

describe("the Postman collection of /v1", () => {
  it("is a Postman Collection v2.1, named after the API", () => {
    expect(collection.info.schema).toBe("https://schema.getpostman.com/json/collection/v2.1.0/collection.json");
    expect(collection.info.name).toBe(document.info.title);
    expect(collection.info._postman_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const folder of collection.item) expect(requestsOf(folder.item).length, `folder ${folder.name}`).toBeGreaterThan(0);
  });

  it("holds exactly the document's operations, each in the folder of its tag", () => {
    const expected = documentOperations().map(({ method, route }) => `${method} ${route}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(requests.map(({ item }) => `${item.request.method} ${documentPath(item)}`).sort()).toEqual(expected.sort());
    for (const { method, route, operation } of documentOperations()) {
      const { folder } = requests.find(({ item }) => item.request.method === method && documentPath(item) === route)!;
      expect(folder, `${method} ${route}`).toBe(operation.tags?.[0]);
    }
  });

  it("sends every request to {{baseUrl}}/v1/…, with the path's parameters as variables that have a value", () => {
    for (const { item } of requests) {
      expect(item.request.url.host, item.name).toEqual(["{{baseUrl}}"]);
      expect(item.request.url.path[0], item.name).toBe("v1");
      const parameters = item.request.url.path.filter((segment) => segment.startsWith(":")).map((segment) => segment.slice(1));
      expect(
        (item.request.url.variable ?? []).map((variable) => variable.key),
        item.name,
      ).toEqual(parameters);
      for (const variable of item.request.url.variable ?? []) expect(variable.value, `${item.name} :${variable.key}`).not.toBe("");
    }
  });

  it("declares baseUrl as an origin and apiKey empty, and nothing else the requests do not use", () => {
    const variables = Object.fromEntries((collection.variable ?? []).map((variable) => [variable.key, variable.value]));
    expect(Object.keys(variables).sort()).toEqual(["apiKey", "baseUrl"]);
    expect(new URL(variables.baseUrl!).origin).toBe(variables.baseUrl);
    expect(variables.apiKey).toBe("");
  });

  it("authenticates with the document's API key header from {{apiKey}}, which every request inherits", () => {
    const scheme = Object.values(document.components.securitySchemes).find((candidate) => candidate.type === "apiKey")!;
    expect(scheme).toMatchObject({ in: "header", name: "X-API-Key" });
    expect(collection.auth?.type).toBe("apikey");
    const auth = Object.fromEntries((collection.auth?.apikey ?? []).map((entry) => [entry.key, entry.value]));
    expect(auth).toEqual({ key: scheme.name, value: "{{apiKey}}", in: "header" });
    for (const { item } of requests) {
      expect(item.request.auth ?? null, item.name).toBeNull();
      expect(item.request.header?.map((header) => header.key.toLowerCase()) ?? [], item.name).not.toContain("x-api-key");
    }
  });

  it("gives every operation with a JSON body an example body that parses as JSON", () => {
    const withBody = documentOperations().filter(({ operation }) => operation.requestBody?.content["application/json"]);
    expect(withBody.map(({ method }) => method)).toEqual(expect.arrayContaining(["POST", "PATCH"]));
    for (const { method, route } of withBody) {
      const body = requestOf(method, route)?.request.body;
      expect(body?.mode, `${method} ${route}`).toBe("raw");
      const parsed: unknown = JSON.parse(body?.raw ?? "");
      expect(parsed, `${method} ${route}`).toBeTypeOf("object");
      expect(Object.keys(parsed as object).length, `${method} ${route}`).toBeGreaterThan(0);
    }
  });

  it("holds nothing shaped like an API key", async () => {
    const json = await postmanCollectionJson(document);
    expect(json.match(/ik_(?:test_)?[A-Za-z0-9]{32}/g)).toBeNull();
    expect(json.match(API_KEY_PATTERN)).toBeNull();
  });
});

/** The file indented, so that a difference shows as the lines that differ, not as one long line. */
const indented = (json: string) => JSON.stringify(JSON.parse(json), null, 1);

describe("the collection's file", () => {
  it("is the same in every conversion of the same document", async () => {
    const [first, second] = [await postmanCollectionJson(document), await postmanCollectionJson(document)];
    expect(indented(first)).toBe(indented(second));
    expect(first).toBe(second);
  });

  it("is what the build writes: scripts/build.mjs's step gives the generator's output byte for byte", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "postman-collection-"));
    try {
      const file = path.join(folder, "collection.json");
      buildPostmanCollection(root, file);
      const [built, generated] = [fs.readFileSync(file, "utf8"), await postmanCollectionJson(document)];
      expect(indented(built)).toBe(indented(generated)); // a difference shows as the lines that differ
      expect(built).toBe(generated);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
