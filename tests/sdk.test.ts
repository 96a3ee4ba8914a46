import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  Invoicing,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ClientOptions,
} from "@invoicing/sdk";
import { startApiServer } from "./helpers/api-server";
import { droppingProxy } from "./helpers/dropping-proxy";
import { createOrg, insertKey } from "./helpers/factories";

// The gateway's clock, held where a test's requests must fall at a minute's end.
let frozenAt: number | null = null;
const api = startApiServer({ clock: () => frozenAt ?? Date.now() });
afterEach(() => {
  frozenAt = null;
});

/** A fetch that records what the SDK sent and got, around the real one. */
function recordingFetch(onResponse: (request: Request, response: Response) => void = () => {}) {
  const sent: Request[] = [];
  const fetcher = async (request: Request) => {
    sent.push(request.clone());
    const response = await fetch(request);
    onResponse(request, response);
    return response;
  };
  return { sent, fetch: fetcher as typeof fetch };
}

async function client(
  options: ClientOptions & { plan?: "pro" | "enterprise"; rateLimitPerMinute?: number; keyOptions?: Parameters<typeof insertKey>[1] } = {},
) {
  const { plan = "pro", rateLimitPerMinute, keyOptions, ...clientOptions } = options;
  const org = await createOrg(plan, { rateLimitPerMinute });
  const key = await insertKey(org.id, keyOptions);
  return { org, key, invoicing: new Invoicing({ apiKey: key.value, baseUrl: api.base, ...clientOptions }) };
}

let invoicing: Invoicing;
beforeAll(async () => {
  ({ invoicing } = await client());
});

describe("the SDK against the API", () => {
  it("takes an invoice from draft to paid and renders its PDF", async () => {
    const customer = await invoicing.customers.create({ name: "Jane Doe GmbH", email: "jane@example.com", currency: "EUR" });
    const product = await invoicing.products.create({ name: "Espresso beans 1 kg", unit_amount: 2490, currency: "EUR", tax_rate: 7 });
    const draft = await invoicing.invoices.create({ customer: customer.id, lines: [{ product: product.id, quantity: 2 }] });
    expect(draft).toMatchObject({ status: "draft", subtotal: 4980, tax: 349, total: 5329, livemode: true });
    const updated = await invoicing.invoices.update(draft.id, { notes: "Thank you." });
    expect(updated.notes).toBe("Thank you.");
    const open = await invoicing.invoices.finalize(draft.id);
    expect(open.status).toBe("open");
    expect(open.number).toMatch(/^INV-\d{6}$/);
    const paid = await invoicing.invoices.pay(draft.id);
    expect(paid.status).toBe("paid");
    expect((await invoicing.invoices.retrieve(draft.id)).status).toBe("paid");
    const pdf = await invoicing.pdf.generate(draft.id);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    expect(pdf.byteLength).toBeGreaterThan(1000);

    const other = await invoicing.invoices.create({ customer: customer.id, lines: [{ description: "Setup", quantity: 1, unit_amount: 5000 }] });
    await invoicing.invoices.finalize(other.id);
    expect((await invoicing.invoices.void(other.id)).status).toBe("void");
    const deletable = await invoicing.invoices.create({ customer: customer.id, lines: [{ description: "Draft", quantity: 1, unit_amount: 1 }] });
    expect(await invoicing.invoices.delete(deletable.id)).toMatchObject({ id: deletable.id, deleted: true });
    expect((await invoicing.products.archive(product.id)).active).toBe(false);
    expect(await invoicing.analytics.retrieve()).toMatchObject({ object: "analytics" });
  });

  it("iterates every item of a list across pages, asking for each page once", async () => {
    const recorder = recordingFetch();
    const { invoicing: paging } = await client({ fetch: recorder.fetch });
    const created: string[] = [];
    for (let index = 0; index < 5; index++) created.push((await paging.customers.create({ name: `Customer ${index}`, currency: "USD" })).id);
    recorder.sent.length = 0;

    const seen: string[] = [];
    for await (const customer of paging.customers.list({ limit: 2 })) seen.push(customer.id);
    expect(seen).toEqual([...created].reverse());
    expect(recorder.sent.map((request) => new URL(request.url).search)).toEqual([
      "?limit=2",
      `?limit=2&starting_after=${created[3]}`,
      `?limit=2&starting_after=${created[1]}`,
    ]);
    const first = await paging.customers.list({ limit: 2 });
    expect(first).toMatchObject({ object: "list", has_more: true, next_cursor: created[3] });
  });

  it("waits for a 429's Retry-After and sends again", async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    frozenAt = minute + 59_500;
    const answers: { status: number; retryAfter: string | null; at: number }[] = [];
    const recorder = recordingFetch((_request, response) => {
      answers.push({ status: response.status, retryAfter: response.headers.get("retry-after"), at: performance.now() });
      // The gateway's minute ends as the client is told to wait: its retry falls in the next one.
      if (response.status === 429) frozenAt = minute + 60_000;
    });
    const { invoicing: limited } = await client({ plan: "enterprise", rateLimitPerMinute: 1, fetch: recorder.fetch });
    await limited.customers.list();
    const { data, meta } = await limited.customers.list().withResponse();
    expect(data.object).toBe("list");
    expect(answers.map(({ status, retryAfter }) => [status, retryAfter])).toEqual([
      [200, null],
      [429, "1"],
      [200, null],
    ]);
    expect(answers[2]!.at - answers[1]!.at).toBeGreaterThanOrEqual(990);
    expect(meta.rateLimit).toMatchObject({ limit: 1, remaining: 0 });
  });

  it("throws a RateLimitError at once when the wait is longer than it may wait", async () => {
    frozenAt = Date.now();
    const { invoicing: limited } = await client({ plan: "enterprise", rateLimitPerMinute: 1, maxRetryAfterSeconds: 0 });
    await limited.customers.list();
    const error = await limited.customers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", requestId: expect.stringMatching(/^req_/) });
    expect((error as RateLimitError).meta?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it("creates one customer when a POST's answer is lost and the SDK sends it again", async () => {
    const proxy = await droppingProxy(api.base);
    try {
      const { org, key } = await client();
      const recorder = recordingFetch();
      const throughProxy = new Invoicing({ apiKey: key.value, baseUrl: proxy.url, fetch: recorder.fetch });
      const { data, meta } = await throughProxy.customers.create({ name: "Once Only Ltd", currency: "GBP" }).withResponse();
      expect(proxy.dropped()).toBe(1);
      expect(meta.idempotentReplayed).toBe(true);
      const keys = recorder.sent.map((request) => request.headers.get("idempotency-key"));
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      const direct = new Invoicing({ apiKey: key.value, baseUrl: api.base });
      const all = [];
      for await (const customer of direct.customers.list({ search: "Once Only" })) all.push(customer.id);
      expect(all).toEqual([data.id]);
      expect(org.id).toBeTruthy();
    } finally {
      await proxy.close();
    }
  });

  it("sends a different Idempotency-Key with every POST unless one is given", async () => {
    const recorder = recordingFetch();
    const { invoicing: recorded } = await client({ fetch: recorder.fetch });
    const first = await recorded.customers.create({ name: "A", currency: "USD" });
    const second = await recorded.customers.create({ name: "A", currency: "USD" });
    expect(second.id).not.toBe(first.id);
    const again = await recorded.customers.create({ name: "B", currency: "USD" }, { idempotencyKey: "order-42" }).withResponse();
    const replay = await recorded.customers.create({ name: "B", currency: "USD" }, { idempotencyKey: "order-42" }).withResponse();
    expect(replay.data.id).toBe(again.data.id);
    expect(replay.meta.idempotentReplayed).toBe(true);
    const keys = recorder.sent.map((request) => request.headers.get("idempotency-key"));
    expect(new Set(keys.slice(0, 2)).size).toBe(2);
    expect(keys.slice(2)).toEqual(["order-42", "order-42"]);
    await recorded.customers.list();
    expect(recorder.sent.at(-1)!.headers.get("idempotency-key")).toBeNull();
  });
});

describe("the SDK's errors and headers", () => {
  const refusal = (promise: PromiseLike<unknown>) =>
    Promise.resolve(promise).then(
      () => expect.unreachable("the call succeeded"),
      (error: unknown) => error,
    );

  it("throws a typed error per status with the code, message, request id and details", async () => {
    const invalid = await refusal(invoicing.customers.create({ name: "", currency: "EUR" }));
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ status: 400, code: "validation_failed", requestId: expect.stringMatching(/^req_/) });
    expect((invalid as BadRequestError).details).toEqual([expect.objectContaining({ path: "name" })]);

    const missing = await refusal(invoicing.customers.retrieve("cus_doesnotexist0000000000"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });

    const customer = await invoicing.customers.create({ name: "Has Open Invoices", currency: "EUR" });
    const invoice = await invoicing.invoices.create({ customer: customer.id, lines: [{ description: "Work", quantity: 1, unit_amount: 100 }] });
    await invoicing.invoices.finalize(invoice.id);
    const conflict = await refusal(invoicing.customers.delete(customer.id));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: "customer_has_open_invoices" });
    expect(await refusal(invoicing.invoices.finalize(invoice.id))).toMatchObject({ status: 409, code: "invoice_not_draft" });

    const { invoicing: readOnly } = await client({ keyOptions: { access: "read_only" } });
    const forbidden = await refusal(readOnly.customers.create({ name: "Nope", currency: "EUR" }));
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(forbidden).toMatchObject({ status: 403, code: "api_key_scope_insufficient" });
    expect((forbidden as PermissionDeniedError).message).toMatch(/read only/);

    const stranger = new Invoicing({ apiKey: `ik_${"A".repeat(32)}`, baseUrl: api.base });
    const unauthenticated = await refusal(stranger.customers.list());
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toMatchObject({ status: 401, code: "api_key_invalid", requestId: expect.stringMatching(/^req_/) });
  });

  it("reads the rate-limit, quota and budget headers of each answer", async () => {
    const { invoicing: budgeted } = await client({ keyOptions: { budget: { limit: 1000, period: "day" } } });
    const { meta, response } = await budgeted.customers.list().withResponse();
    expect(response.status).toBe(200);
    expect(meta.requestId).toMatch(/^req_/);
    expect(meta.rateLimit).toEqual({ limit: 60, remaining: 59, resetsAt: expect.any(Date) });
    expect(meta.quota).toEqual({ limit: 10_000, remaining: 9_999 });
    expect(meta.budget).toEqual({ limit: 1000, remaining: 999, resetsAt: expect.any(Date) });
    expect(meta.idempotentReplayed).toBe(false);
  });

  it("refuses to start without a key, saying where one comes from", () => {
    const saved = process.env.INVOICING_API_KEY;
    delete process.env.INVOICING_API_KEY;
    try {
      expect(() => new Invoicing({ baseUrl: api.base })).toThrow(/INVOICING_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.INVOICING_API_KEY = saved;
    }
  });

  it("has a method for every operation of the served document", async () => {
    const document = (await (await fetch(api.url("/v1/openapi.json"))).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    expect(operationIds).toHaveLength(21);
    const VERBS: Record<string, string> = { get: "retrieve" };
    for (const operationId of operationIds) {
      // listCustomers → customers.list, getAnalytics → analytics.retrieve, generatePdf → pdf.generate.
      const [, verb, noun] = /^([a-z]+)([A-Z]\w*)$/.exec(operationId)!;
      const resource = noun!.toLowerCase().replace(/^(customer|product|invoice)$/, "$1s");
      const method = VERBS[verb!] ?? verb!;
      const target = (invoicing as unknown as Record<string, Record<string, unknown>>)[resource];
      expect(typeof target?.[method], `${operationId} → invoicing.${resource}.${method}`).toBe("function");
    }
  });
});
