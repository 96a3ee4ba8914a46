import { request, type IncomingHttpHeaders, type RequestListener } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/api/body-limit";
import { isApiPath, STRICT_TRANSPORT_SECURITY } from "@/servers/one-port-listener";
import { OpenApiContract, type Exchange } from "./helpers/api-contract";
import { createOrg, insertKey } from "./helpers/factories";
import { listenOnePort } from "./helpers/one-port";

// /v1 as npm start serves it: server.ts's listener, with Next replaced by a handler that only
// records what reached it. Requests are written as curl writes them, through node:http.

const reachedNext: string[] = [];
const recordNext = (req: Parameters<RequestListener>[0], res: Parameters<RequestListener>[1]) => {
  reachedNext.push(`${req.method} ${req.url}`);
  res.writeHead(200, { "Content-Type": "text/plain" }).end("Next");
};

interface Send {
  headers?: Record<string, string>;
  /** The body's pieces, sent with Transfer-Encoding: chunked. Without it: no body and no length header at all. */
  chunks?: (string | Buffer)[];
  /** When false, the key is left out. */
  key?: boolean;
  port?: number;
}

let port = 0;
let key = "";
const exchanges: Exchange[] = [];
const apiExchanges = () => exchanges.filter(({ path }) => isApiPath(path));

function send(method: string, path: string, options: Send = {}): Promise<Exchange> {
  const headers: Record<string, string> = { ...(options.key === false ? {} : { "X-API-Key": key }), ...options.headers };
  if (options.chunks) headers["Content-Type"] ??= "application/json";
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request({ host: "127.0.0.1", port: options.port ?? port, method, path, headers }, (incoming) => {
      answered = true;
      const body: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => body.push(chunk));
      incoming.on("end", () => {
        const exchange = {
          method,
          path,
          requestBody: undefined,
          status: incoming.statusCode!,
          headers: toHeaders(incoming.headers),
          body: Buffer.concat(body),
        };
        exchanges.push(exchange);
        resolve(exchange);
      });
    });
    // The server may answer (413) and stop reading before the whole body is written.
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (!options.chunks) {
      // What `curl -X DELETE` or `curl -X POST` without -d sends: neither Content-Length nor Transfer-Encoding.
      outgoing.removeHeader("Content-Length");
      outgoing.removeHeader("Transfer-Encoding");
    }
    for (const chunk of options.chunks ?? []) outgoing.write(chunk);
    outgoing.end();
  });
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) for (const one of [value ?? []].flat()) headers.append(name, one);
  return headers;
}

const json = <T>(exchange: Exchange) => JSON.parse(exchange.body.toString("utf8")) as T;
const errorCode = (exchange: Exchange) => json<{ error: { code: string } }>(exchange).error.code;
const created = async (path: string, body: unknown) => {
  const exchange = await send("POST", path, { chunks: [JSON.stringify(body)] });
  expect(exchange.status, exchange.body.toString()).toBe(201);
  return json<{ id: string }>(exchange).id;
};
const draftInvoice = async () =>
  created("/v1/invoices", {
    customer: await created("/v1/customers", { name: "Jane Doe GmbH", currency: "EUR" }),
    lines: [{ description: "Consulting", quantity: 1, unit_amount: 10000 }],
  });

let listener: Awaited<ReturnType<typeof listenOnePort>>;
beforeAll(async () => {
  listener = await listenOnePort({ handleNext: recordNext });
  port = listener.port;
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  key = (await insertKey(org.id)).value;
});
afterAll(() => listener.close());

describe("/v1 through the one-port listener", () => {
  it("deletes with a DELETE that has no body and no length", async () => {
    const customer = await created("/v1/customers", { name: "Jane Doe GmbH", currency: "EUR" });
    const deleted = await send("DELETE", `/v1/customers/${customer}`);
    expect(deleted.status).toBe(200);
    expect(json(deleted)).toMatchObject({ id: customer, deleted: true });
    const again = await send("DELETE", `/v1/customers/${customer}`);
    expect(again.status).toBe(404);
    expect(errorCode(again)).toBe("not_found");
  });

  it("finalizes, pays, voids and archives with POSTs that have no body and no length", async () => {
    const paid = await draftInvoice();
    expect(json(await send("POST", `/v1/invoices/${paid}/finalize`))).toMatchObject({ id: paid, status: "open" });
    expect(json(await send("POST", `/v1/invoices/${paid}/pay`))).toMatchObject({ id: paid, status: "paid" });
    const refused = await send("POST", `/v1/invoices/${paid}/void`);
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe("invoice_not_open");

    const voided = await draftInvoice();
    expect((await send("POST", `/v1/invoices/${voided}/finalize`)).status).toBe(200);
    expect(json(await send("POST", `/v1/invoices/${voided}/void`))).toMatchObject({ id: voided, status: "void" });

    const product = await created("/v1/products", { name: "Espresso beans 1 kg", unit_amount: 2490, currency: "EUR", tax_rate: 7 });
    expect(json(await send("POST", `/v1/products/${product}/archive`))).toMatchObject({ id: product, active: false });
  });

  it("reads a JSON body sent in chunks", async () => {
    const exchange = await send("POST", "/v1/customers", { chunks: ['{"name": "Chunked', ' Ltd", "currency"', ': "USD"}'] });
    expect(exchange.status).toBe(201);
    expect(json(exchange)).toMatchObject({ name: "Chunked Ltd", currency: "USD" });
  });

  it("refuses a chunked body over 1 MiB with 413 payload_too_large", async () => {
    const piece = Buffer.alloc(64 * 1024, " ");
    const chunks = [Buffer.from('{"name": "x", "currency": "EUR", "notes": "'), ...Array<Buffer>(MAX_BODY_BYTES / piece.length).fill(piece), Buffer.from('"}')];
    const exchange = await send("POST", "/v1/customers", { chunks });
    expect(exchange.status).toBe(413);
    expect(errorCode(exchange)).toBe("payload_too_large");
  });

  it("answers OPTIONS with 404 route_not_found and HEAD like GET without a body", async () => {
    const options = await send("OPTIONS", "/v1/invoices");
    expect(options.status).toBe(404);
    expect(errorCode(options)).toBe("route_not_found");
    const head = await send("HEAD", "/v1/invoices");
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect(head.headers.get("x-ratelimit-limit")).toBe("100000");
  });

  it("answers without a key with 401 api_key_missing", async () => {
    const exchange = await send("DELETE", "/v1/customers/cus_x", { key: false });
    expect(exchange.status).toBe(401);
    expect(errorCode(exchange)).toBe("api_key_missing");
  });

  it("sends nosniff and no-store with every /v1 answer, errors and the OpenAPI document included", async () => {
    await send("GET", "/v1/openapi.json", { key: false });
    await send("GET", "/v1/no-such-path");
    expect(apiExchanges().length).toBeGreaterThan(15);
    for (const { method, path, status, headers } of apiExchanges()) {
      expect({ method, path, status, nosniff: headers.get("x-content-type-options"), cache: headers.get("cache-control") }).toEqual({
        method,
        path,
        status,
        nosniff: "nosniff",
        cache: "no-store",
      });
    }
  });

  it("got no 5xx and only answers the served OpenAPI document describes, each error in the documented shape", async () => {
    const contract = new OpenApiContract(json(await send("GET", "/v1/openapi.json", { key: false })));
    expect(apiExchanges().filter((exchange) => exchange.status >= 500)).toEqual([]);
    // HEAD has no body to check, and the document does not describe itself.
    const withBody = apiExchanges().filter(({ method, path }) => method !== "HEAD" && path !== "/v1/openapi.json");
    expect(withBody.flatMap((exchange) => contract.problems(exchange))).toEqual([]);
    for (const exchange of withBody.filter(({ status }) => status >= 400)) {
      expect(json(exchange)).toEqual({ error: { code: expect.any(String), message: expect.any(String), request_id: exchange.headers.get("x-request-id") } });
    }
  });

  it("never hands a /v1 request to Next, and everything else to Next", async () => {
    expect(reachedNext).toEqual([]);
    expect((await send("GET", "/v1beta", { key: false })).body.toString()).toBe("Next");
    expect((await send("GET", "/signin?next=/v1/x", { key: false })).body.toString()).toBe("Next");
    expect(reachedNext).toEqual(["GET /v1beta", "GET /signin?next=/v1/x"]);
  });
});

describe("Strict-Transport-Security", () => {
  let trusting: Awaited<ReturnType<typeof listenOnePort>>;
  beforeAll(async () => {
    trusting = await listenOnePort({ handleNext: recordNext, proxyHops: 1 });
  });
  afterAll(() => trusting.close());

  it("is sent behind a trusted proxy that forwards HTTPS, to /v1 and to Next", async () => {
    for (const path of ["/v1/openapi.json", "/signin"]) {
      const exchange = await send("GET", path, { key: false, port: trusting.port, headers: { "X-Forwarded-Proto": "https" } });
      expect(exchange.headers.get("strict-transport-security"), path).toBe(STRICT_TRANSPORT_SECURITY);
    }
  });

  it("is not sent over plain HTTP, nor when an untrusted client claims HTTPS", async () => {
    expect(
      (await send("GET", "/signin", { key: false, port: trusting.port, headers: { "X-Forwarded-Proto": "http" } })).headers.has("strict-transport-security"),
    ).toBe(false);
    expect((await send("GET", "/signin", { key: false, port: trusting.port })).headers.has("strict-transport-security")).toBe(false);
    expect((await send("GET", "/signin", { key: false, headers: { "X-Forwarded-Proto": "https" } })).headers.has("strict-transport-security")).toBe(false);
  });
});
