import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { MAX_BODY_BYTES } from "@/lib/api/body-limit";
import { OpenApiContract } from "./helpers/api-contract";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";
import { BROKEN_ENCODINGS, FUZZ_SEED, HOSTILE_STRINGS, MALFORMED_BODIES, SchemaArbitraries, fuzzRuns, urlComponent } from "./helpers/fuzz-inputs";
import { CPU_BUDGET_MS, FuzzTally, leastCpuMs, orgFingerprint, withCpuTime } from "./helpers/fuzz-probe";
import { pooledClient, type PooledRequest } from "./helpers/pooled-client";

// Input bounds (docs/security.md#input), over every operation of the served OpenAPI document: generated paths, queries,
// bodies and headers, hostile ones among them, each answered with a 2xx or a documented 4xx and
// its error body, within the CPU budget, and changing nothing when refused.

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  parameters: { name: string; in: string; schema: Json }[];
  body?: Json;
}

interface FuzzCase {
  id: string;
  query: [string, string][];
  body: { kind: "json"; value: unknown } | { kind: "raw"; text: string } | { kind: "none" };
  contentType: string | null;
  /** Header parameters of the operation (Idempotency-Key on POST). */
  headers: [string, string][];
}

const RUNS_PER_OPERATION = fuzzRuns(150);
const api = startApiServer();
const tally = new FuzzTally();
// The document as the server serves it, read before the tests are collected: one test per operation.
const doc = (await (await createApiApp().request("/v1/openapi.json")).json()) as Json;
const contract = new OpenApiContract(doc);
const arbitraries = new SchemaArbitraries(doc);
let org: { id: string };
let key: string;
const fixtureIds: Record<string, string[]> = { customers: [], products: [], invoices: [] };

// A pooled keep-alive client without retries, as SDKs are: a connection the server closes without
// saying so fails the next request on it.
const client = pooledClient(() => api.base);

async function send(path: string, init: PooledRequest = {}): Promise<Response> {
  return client.fetch(path, { ...init, headers: { "X-API-Key": key, ...init.headers } });
}

async function create(path: string, json: unknown): Promise<string> {
  const response = await send(path, { method: "POST", body: JSON.stringify(json), headers: { "Content-Type": "application/json" } });
  expect(response.status, path).toBeLessThan(300);
  return ((await response.json()) as { id: string }).id;
}

/** A small organization in every state a handler branches on: stocked products, invoices in each status. */
async function createFixtures() {
  for (const name of ["Acme GmbH", "Globex", "Initech"])
    fixtureIds.customers!.push(await create("/v1/customers", { name, currency: "EUR", email: `billing@${name.toLowerCase().replace(/\W/g, "")}.example` }));
  fixtureIds.products!.push(await create("/v1/products", { name: "Beans", unit_amount: 1299, currency: "EUR", stock_quantity: 50, sku: "BEAN-1" }));
  fixtureIds.products!.push(await create("/v1/products", { name: "Consulting hour", unit_amount: 15000, currency: "EUR", tax_rate: 19 }));
  for (const step of [[], ["finalize"], ["finalize", "pay"], ["finalize", "void"], [], ["finalize"]]) {
    const id = await create("/v1/invoices", {
      customer: fixtureIds.customers![0],
      lines: [
        { product: fixtureIds.products![0], quantity: 1 },
        { description: "Setup", quantity: 2, unit_amount: 5000 },
      ],
    });
    for (const transition of step) await send(`/v1/invoices/${id}/${transition}`, { method: "POST" });
    fixtureIds.invoices!.push(id);
  }
}

function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const body = (((operation.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema as
        Json | undefined;
      operations.push({ method: method.toUpperCase(), template, parameters: (operation.parameters ?? []) as Operation["parameters"], body });
    }
  }
  return operations;
}

function caseFor(operation: Operation): fc.Arbitrary<FuzzCase> {
  const resource = operation.template.split("/")[2] ?? "";
  const knownIds = [...(fixtureIds[resource] ?? []), ...Object.values(fixtureIds).flat()];
  const id = fc.oneof(
    { arbitrary: fc.constantFrom(...knownIds).map(urlComponent), weight: 6 },
    {
      arbitrary: fc
        .constantFrom(...HOSTILE_STRINGS)
        .filter((value) => value !== "")
        .map(urlComponent),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...BROKEN_ENCODINGS), weight: 1 },
  );
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const queryValue = (schema: Json) =>
    fc.oneof(
      { arbitrary: arbitraries.value(schema).map((value) => urlComponent(typeof value === "string" ? value : (JSON.stringify(value) ?? ""))), weight: 5 },
      { arbitrary: fc.constantFrom(...BROKEN_ENCODINGS), weight: 1 },
    );
  const pairFor = (parameter: Operation["parameters"][number]) => queryValue(parameter.schema).map((value): [string, string] => [parameter.name, value]);
  const query: fc.Arbitrary<[string, string][]> = fc
    .tuple(
      fc.subarray(queryParameters).chain((chosen) => fc.tuple(...chosen.map(pairFor))),
      fc.option(fc.constantFrom<[string, string]>(["unknown", "1"], ["limit", "1e3"], ["__proto__", "x"]), { freq: 5 }),
    )
    .map(([pairs, extra]) => (extra ? [...pairs, extra] : [...pairs]));
  const body: fc.Arbitrary<FuzzCase["body"]> = operation.body
    ? fc.oneof(
        { arbitrary: arbitraries.value(operation.body).map((value) => ({ kind: "json" as const, value })), weight: 8 },
        { arbitrary: fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ kind: "raw" as const, text })), weight: 1 },
        { arbitrary: fc.constant({ kind: "none" as const }), weight: 1 },
      )
    : fc.oneof(
        { arbitrary: fc.constant({ kind: "none" as const }), weight: 4 },
        { arbitrary: fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ kind: "raw" as const, text })), weight: 1 },
      );
  const contentType = fc.oneof(
    { arbitrary: fc.constant("application/json"), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
      ),
      weight: 1,
    },
    { arbitrary: fc.constant(null), weight: 1 },
  );
  // Values fetch can send: printable ASCII of any length (spaces and over-long included), UUIDs, Latin-1.
  const headerValue = fc.oneof(
    { arbitrary: fc.uuid(), weight: 3 },
    { arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 300 }), weight: 3 },
    { arbitrary: fc.constantFrom("", " ", "clé", "k".repeat(256), "__proto__"), weight: 1 },
  );
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === "header");
  const headers: fc.Arbitrary<[string, string][]> = fc
    .subarray(headerParameters)
    .chain((chosen) => fc.tuple(...chosen.map((parameter) => headerValue.map((value): [string, string] => [parameter.name, value]))));
  return fc.record({ id, query, body, contentType, headers });
}

function urlOf(operation: Operation, fuzz: FuzzCase): string {
  const path = operation.template.replace("{id}", fuzz.id);
  const query = fuzz.query.map(([name, value]) => `${name}=${value}`).join("&");
  return query ? `${path}?${query}` : path;
}

function bodyText(body: FuzzCase["body"]): string | undefined {
  if (body.kind === "json") return JSON.stringify(body.value);
  if (body.kind === "raw") return body.text;
  return undefined;
}

beforeAll(async () => {
  org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  key = (await insertKey(org.id)).value;
  await createFixtures();
});

afterAll(() => {
  console.log(tally.summary("Fuzz of /v1"));
});

describe("every /v1 operation under generated input", () => {
  it("covers every operation of the served document", () => {
    expect(operationsOf(doc).length).toBeGreaterThanOrEqual(20);
  });

  it("keeps its connections pooled across a 413 and sees no reset", async () => {
    const reusedBefore = client.reused;
    const tooLarge = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES), currency: "EUR" });
    for (let round = 0; round < 12; round++) {
      const refused = await send("/v1/customers", { method: "POST", headers: { "Content-Type": "application/json" }, body: tooLarge });
      expect(refused.status).toBe(413);
      expect((await send("/v1/customers?limit=1")).status).toBe(200);
      expect((await send("/v1/products?limit=1")).status).toBe(200);
    }
    // The pool was at work: requests went out on connections earlier ones had used.
    expect(client.reused - reusedBefore).toBeGreaterThanOrEqual(12);
  });

  for (const [index, operation] of operationsOf(doc).entries()) {
    const label = `${operation.method} ${operation.template}`;
    it(`${label}: answers 2xx or a documented 4xx with its error body, within ${CPU_BUDGET_MS} ms of CPU, and a refusal changes nothing`, async () => {
      // Warm the route once (module loading, first query plans) outside the measured cases.
      await send(operation.template.replace("{id}", fixtureIds.customers![0]!), { method: operation.method });
      let state = await orgFingerprint(org.id);
      await fc.assert(
        fc.asyncProperty(caseFor(operation), async (fuzz) => {
          const url = urlOf(operation, fuzz);
          // fetch cannot send a body with GET; the server ignores one anyway.
          const text = operation.method === "GET" ? undefined : bodyText(fuzz.body);
          const headers: Record<string, string> = {
            ...Object.fromEntries(fuzz.headers),
            ...(fuzz.contentType && text !== undefined ? { "Content-Type": fuzz.contentType } : {}),
          };
          const attempt = () =>
            withCpuTime(async () => {
              const response = await send(url, { method: operation.method, headers, body: text });
              return {
                method: operation.method,
                path: url,
                requestBody: fuzz.body.kind === "json" ? fuzz.body.value : undefined,
                status: response.status,
                headers: response.headers,
                body: Buffer.from(await response.arrayBuffer()),
              };
            });
          const { result: exchange, cpuMs: firstCpuMs } = await attempt();
          const where = `${label} ${url.slice(0, 200)} body ${text?.slice(0, 200)} → ${exchange.status} ${exchange.body.toString("utf8").slice(0, 300)}`;
          expect(exchange.status, where).toBeLessThan(500);
          expect(contract.problems(exchange), where).toEqual([]);
          // State is re-read below, so a replayed request that changes data is accounted for.
          const cpuMs = await leastCpuMs(firstCpuMs, attempt);
          tally.add(exchange.status, cpuMs, `${label} → ${exchange.status}`);
          expect(cpuMs, where).toBeLessThan(CPU_BUDGET_MS);
          const after = await orgFingerprint(org.id);
          if (exchange.status >= 400) expect(after, `${where}: a refused call changed data`).toBe(state);
          state = after;
        }),
        { numRuns: RUNS_PER_OPERATION, seed: FUZZ_SEED + index, endOnFailure: true },
      );
    }, 300_000);
  }
});
