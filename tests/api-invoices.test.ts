import { beforeAll, describe, expect, it } from "vitest";
import type { InvoiceDto } from "@/lib/api/schemas/invoices";
import type { ProductDto } from "@/lib/api/schemas/products";
import { utcDay } from "@/core/time";
import { apiClient, contractApi, errorOf, itMatchesTheDocument } from "./helpers/api-contract";

const api = contractApi();

const day = (offset: number) => utcDay(new Date(Date.now() + offset * 86_400_000));

/** An organization seen through its API key: helpers that create what a test needs. */
async function tenant() {
  const { call } = await apiClient(api);
  const post = async <T>(path: string, json?: unknown, status = 201): Promise<T> => {
    const response = await call(path, { method: "POST", json });
    expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(status);
    return (await response.json()) as T;
  };
  const customer = (fields: Record<string, unknown> = {}) => post<{ id: string }>("/v1/customers", { name: "Jane Doe GmbH", currency: "EUR", ...fields });
  const product = (fields: Record<string, unknown> = {}) =>
    post<ProductDto>("/v1/products", { name: "Espresso beans 1 kg", unit_amount: 2490, currency: "EUR", tax_rate: 7, ...fields });
  const draft = async (fields: Record<string, unknown> = {}) =>
    post<InvoiceDto>("/v1/invoices", { customer: (await customer()).id, lines: [{ description: "Consulting", quantity: 1, unit_amount: 10000 }], ...fields });
  const transition = (id: string, action: "finalize" | "pay" | "void", status = 200) => post<InvoiceDto>(`/v1/invoices/${id}/${action}`, undefined, status);
  return { call, post, customer, product, draft, transition };
}

let acme: Awaited<ReturnType<typeof tenant>>;
let other: Awaited<ReturnType<typeof tenant>>;

beforeAll(async () => {
  acme = await tenant();
  other = await tenant();
});

async function refusal(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  return error;
}

describe("creating a draft", () => {
  it("prices product and free-text lines with tax rounded half up per line", async () => {
    const product = await acme.product();
    const invoice = await acme.draft({
      lines: [
        { product: product.id, quantity: 3 },
        { description: "Delivery", quantity: 1, unit_amount: 5, tax_rate: 10 },
        { product: product.id, quantity: 1, unit_amount: 1999, tax_rate: 19, description: "Beans, special price" },
      ],
    });
    expect(invoice).toMatchObject({ object: "invoice", status: "draft", number: null, currency: "EUR", overdue: false, issue_date: null, due_date: null });
    expect(invoice.id).toMatch(/^in_/);
    expect(
      invoice.lines.map(({ description, quantity, unit_amount, tax_rate, amount, tax, product: p }) => ({
        description,
        quantity,
        unit_amount,
        tax_rate,
        amount,
        tax,
        p,
      })),
    ).toEqual([
      { description: "Espresso beans 1 kg", quantity: 3, unit_amount: 2490, tax_rate: 7, amount: 7470, tax: 523, p: product.id }, // 522.9 → 523
      { description: "Delivery", quantity: 1, unit_amount: 5, tax_rate: 10, amount: 5, tax: 1, p: null }, // 0.5 → 1
      { description: "Beans, special price", quantity: 1, unit_amount: 1999, tax_rate: 19, amount: 1999, tax: 380, p: product.id }, // 379.81 → 380
    ]);
    expect(invoice).toMatchObject({ subtotal: 9474, tax: 904, total: 10378 });
    expect(invoice.lines[0]!.id).toMatch(/^li_/);
  });

  it("takes the currency from the customer, or from the request", async () => {
    const customer = await acme.customer({ currency: "JPY" });
    const inYen = await acme.post<InvoiceDto>("/v1/invoices", { customer: customer.id, lines: [{ description: "Sushi", quantity: 2, unit_amount: 1500 }] });
    expect(inYen.currency).toBe("JPY");
    const inDollars = await acme.post<InvoiceDto>("/v1/invoices", {
      customer: customer.id,
      currency: "USD",
      lines: [{ description: "Sushi", quantity: 1, unit_amount: 1 }],
    });
    expect(inDollars.currency).toBe("USD");
  });

  it("needs a currency when the customer has none", async () => {
    const customer = await acme.customer({ currency: null });
    const response = await acme.call("/v1/invoices", {
      method: "POST",
      json: { customer: customer.id, lines: [{ description: "x", quantity: 1, unit_amount: 1 }] },
    });
    expect((await refusal(response, 400, "validation_failed")).details?.[0]?.path).toBe("currency");
  });

  it("refuses a product priced in another currency", async () => {
    const product = await acme.product({ currency: "USD" });
    const customer = await acme.customer();
    const response = await acme.call("/v1/invoices", { method: "POST", json: { customer: customer.id, lines: [{ product: product.id, quantity: 1 }] } });
    expect((await refusal(response, 400, "validation_failed")).details?.[0]?.path).toBe("lines.0.product");
  });

  it("refuses an archived product with 409 product_archived", async () => {
    const product = await acme.product();
    await acme.post(`/v1/products/${product.id}/archive`, undefined, 200);
    const customer = await acme.customer();
    const response = await acme.call("/v1/invoices", { method: "POST", json: { customer: customer.id, lines: [{ product: product.id, quantity: 1 }] } });
    await refusal(response, 409, "product_archived");
  });

  it("answers unknown and other organizations' customers and products with 404", async () => {
    const theirCustomer = await other.customer();
    const theirProduct = await other.product();
    const mine = await acme.customer();
    const line = { description: "x", quantity: 1, unit_amount: 1 };
    for (const [json, path] of [
      [{ customer: theirCustomer.id, lines: [line] }, "customer"],
      [{ customer: "cus_nope", lines: [line] }, "customer"],
      [{ customer: mine.id, lines: [line, { product: theirProduct.id, quantity: 1 }] }, "lines.1.product"],
    ] as const) {
      const error = await refusal(await acme.call("/v1/invoices", { method: "POST", json }), 404, "not_found");
      expect(error.details?.[0]?.path).toBe(path);
    }
  });

  it.each([
    ["a negative quantity", { lines: [{ description: "x", quantity: -1, unit_amount: 100 }] }, "lines.0.quantity"],
    ["a zero quantity", { lines: [{ description: "x", quantity: 0, unit_amount: 100 }] }, "lines.0.quantity"],
    ["a fractional quantity", { lines: [{ description: "x", quantity: 1.5, unit_amount: 100 }] }, "lines.0.quantity"],
    ["no lines", { lines: [] }, "lines"],
    ["a free-text line without a price", { lines: [{ description: "x", quantity: 1 }] }, "lines.0.unit_amount"],
    ["a free-text line without a description", { lines: [{ quantity: 1, unit_amount: 1 }] }, "lines.0.description"],
    ["an unknown field on a line", { lines: [{ description: "x", quantity: 1, unit_amount: 1, discount: 5 }] }, "lines.0"],
    ["a unit amount beyond 2^53 − 1", { lines: [{ description: "x", quantity: 1, unit_amount: 2 ** 53 }] }, "lines.0.unit_amount"],
    ["a line amount beyond 2^53 − 1", { lines: [{ description: "x", quantity: 1000, unit_amount: 2 ** 50 }] }, "lines.0"],
    [
      "totals beyond 2^53 − 1",
      {
        lines: [
          { description: "x", quantity: 1, unit_amount: 2 ** 52 },
          { description: "y", quantity: 1, unit_amount: 2 ** 52 },
        ],
      },
      "lines",
    ],
    ["an unknown currency", { currency: "XXX" }, "currency"],
    ["an impossible date", { issue_date: "2026-02-30" }, "issue_date"],
    ["a timestamp as a date", { due_date: "2026-03-01T00:00:00Z" }, "due_date"],
    ["a due date before the issue date", { issue_date: "2026-03-10", due_date: "2026-03-01" }, "due_date"],
    ["a negative tax rate", { lines: [{ description: "x", quantity: 1, unit_amount: 1, tax_rate: -7 }] }, "lines.0.tax_rate"],
    ["an unknown field", { memo: "hi" }, "json"],
  ])("refuses %s with 400 and details", async (_label, fields, path) => {
    const customer = await acme.customer();
    const json = { customer: customer.id, lines: [{ description: "x", quantity: 1, unit_amount: 100 }], ...fields };
    const error = await refusal(await acme.call("/v1/invoices", { method: "POST", json }), 400, "validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });

  it("refuses JSON that does not parse", async () => {
    await refusal(
      await acme.call("/v1/invoices", { method: "POST", body: '{"customer":', headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_json",
    );
  });
});

describe("editing and deleting drafts", () => {
  it("changes the fields sent, replaces lines and computes the amounts again", async () => {
    const invoice = await acme.draft({ notes: "Thanks" });
    const customer = await acme.customer({ name: "New Customer AG" });
    const response = await acme.call(`/v1/invoices/${invoice.id}`, {
      method: "PATCH",
      json: {
        customer: customer.id,
        notes: null,
        issue_date: day(0),
        due_date: day(14),
        lines: [{ description: "Workshop", quantity: 2, unit_amount: 50000, tax_rate: 19 }],
      },
    });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as InvoiceDto;
    expect(updated).toMatchObject({ customer: customer.id, notes: null, issue_date: day(0), due_date: day(14), subtotal: 100000, tax: 19000, total: 119000 });
    expect(updated.customer_details.name).toBe("New Customer AG");
    expect(updated.lines).toHaveLength(1);
  });

  it("prices the lines again in a new currency, and refuses when a product is priced in another", async () => {
    const freeText = await acme.draft({ lines: [{ description: "Consulting", quantity: 2, unit_amount: 10000, tax_rate: 10 }] });
    const inDollars = await acme.call(`/v1/invoices/${freeText.id}`, { method: "PATCH", json: { currency: "USD" } });
    expect(await inDollars.json()).toMatchObject({ currency: "USD", subtotal: 20000, tax: 2000, total: 22000 });

    const product = await acme.product();
    const withProduct = await acme.draft({ lines: [{ product: product.id, quantity: 1 }] });
    const response = await acme.call(`/v1/invoices/${withProduct.id}`, { method: "PATCH", json: { currency: "USD" } });
    expect((await refusal(response, 400, "validation_failed")).details?.[0]?.path).toBe("lines.0.product");
  });

  it.each([
    ["no lines", { lines: [] }, "lines"],
    ["a negative quantity", { lines: [{ description: "x", quantity: -2, unit_amount: 1 }] }, "lines.0.quantity"],
    ["a status", { status: "paid" }, "json"],
    ["a null customer", { customer: null }, "customer"],
  ])("refuses an update with %s", async (_label, json, path) => {
    const invoice = await acme.draft();
    const error = await refusal(await acme.call(`/v1/invoices/${invoice.id}`, { method: "PATCH", json }), 400, "validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });

  it("checks the dates against the ones the draft already has", async () => {
    const invoice = await acme.draft({ issue_date: day(0) });
    const response = await acme.call(`/v1/invoices/${invoice.id}`, { method: "PATCH", json: { due_date: day(-1) } });
    expect((await refusal(response, 400, "validation_failed")).details?.[0]?.path).toBe("due_date");
  });

  it("deletes a draft", async () => {
    const invoice = await acme.draft();
    const response = await acme.call(`/v1/invoices/${invoice.id}`, { method: "DELETE" });
    expect(await response.json()).toEqual({ id: invoice.id, object: "invoice", livemode: true, deleted: true });
    expect((await acme.call(`/v1/invoices/${invoice.id}`)).status).toBe(404);
  });

  it.each(["open", "paid", "void"] as const)("refuses to edit or delete an %s invoice with invoice_not_draft", async (status) => {
    const invoice = await acme.draft();
    await acme.transition(invoice.id, "finalize");
    if (status !== "open") await acme.transition(invoice.id, status === "paid" ? "pay" : "void");
    await refusal(await acme.call(`/v1/invoices/${invoice.id}`, { method: "PATCH", json: { notes: "Changed" } }), 409, "invoice_not_draft");
    await refusal(await acme.call(`/v1/invoices/${invoice.id}`, { method: "DELETE" }), 409, "invoice_not_draft");
    await refusal(await acme.call(`/v1/invoices/${invoice.id}/finalize`, { method: "POST" }), 409, "invoice_not_draft");
  });
});

describe("the lifecycle", () => {
  it("finalizes: the next number, dates, frozen customer details; then pays", async () => {
    const t = await tenant();
    const customer = await t.customer({ name: "Before GmbH" });
    const first = await t.post<InvoiceDto>("/v1/invoices", { customer: customer.id, lines: [{ description: "A", quantity: 1, unit_amount: 100 }] });
    const second = await t.post<InvoiceDto>("/v1/invoices", {
      customer: customer.id,
      issue_date: day(-3),
      lines: [{ description: "B", quantity: 1, unit_amount: 100 }],
    });

    const open = await t.transition(first.id, "finalize");
    expect(open).toMatchObject({ status: "open", number: "INV-000001", issue_date: day(0), due_date: day(30), overdue: false });
    expect(open.finalized_at).not.toBeNull();
    expect((await t.transition(second.id, "finalize")).number).toBe("INV-000002");

    await t.call(`/v1/customers/${customer.id}`, { method: "PATCH", json: { name: "After GmbH" } });
    expect(((await (await t.call(`/v1/invoices/${first.id}`)).json()) as InvoiceDto).customer_details.name).toBe("Before GmbH");
    const laterDraft = await t.post<InvoiceDto>("/v1/invoices", { customer: customer.id, lines: [{ description: "C", quantity: 1, unit_amount: 1 }] });
    expect(laterDraft.customer_details.name).toBe("After GmbH");

    const paid = await t.transition(first.id, "pay");
    expect(paid).toMatchObject({ status: "paid", number: "INV-000001" });
    expect(paid.paid_at).not.toBeNull();
  });

  it.each([
    ["pay", "draft", "invoice_not_open"],
    ["void", "draft", "invoice_not_open"],
    ["pay", "paid", "invoice_not_open"],
    ["void", "paid", "invoice_not_open"],
    ["pay", "void", "invoice_not_open"],
    ["void", "void", "invoice_not_open"],
  ] as const)("refuses to %s a %s invoice with %s", async (action, status, code) => {
    const invoice = await acme.draft();
    if (status !== "draft") {
      await acme.transition(invoice.id, "finalize");
      await acme.transition(invoice.id, status === "paid" ? "pay" : "void");
    }
    await refusal(await acme.call(`/v1/invoices/${invoice.id}/${action}`, { method: "POST" }), 409, code);
  });

  it("refuses to finalize a draft whose due date has passed without an issue date", async () => {
    const invoice = await acme.draft({ due_date: day(-1) });
    expect((await refusal(await acme.call(`/v1/invoices/${invoice.id}/finalize`, { method: "POST" }), 400, "validation_failed")).details?.[0]?.path).toBe(
      "due_date",
    );
  });

  it("takes stock at finalization, gives it back on void, and refuses to go below zero", async () => {
    const t = await tenant();
    const product = await t.product({ stock_quantity: 5 });
    const untracked = await t.product({ stock_quantity: null });
    const customer = await t.customer();
    const sell = (quantity: number) =>
      t.post<InvoiceDto>("/v1/invoices", {
        customer: customer.id,
        lines: [
          { product: product.id, quantity },
          { product: untracked.id, quantity: 100 },
          { product: product.id, quantity: 1 },
        ],
      });
    const stock = async () => ((await (await t.call(`/v1/products/${product.id}`)).json()) as ProductDto).stock_quantity;

    const first = await sell(2);
    expect((await t.transition(first.id, "finalize")).number).toBe("INV-000001");
    expect(await stock()).toBe(2);

    const tooMany = await sell(2);
    const error = await refusal(await t.call(`/v1/invoices/${tooMany.id}/finalize`, { method: "POST" }), 409, "insufficient_stock");
    expect(error.message).toContain("2 in stock, 3 on invoice");
    expect(await stock()).toBe(2);
    expect(((await (await t.call(`/v1/invoices/${tooMany.id}`)).json()) as InvoiceDto).status).toBe("draft");

    await t.transition(first.id, "void");
    expect(await stock()).toBe(5);
    expect((await t.transition(tooMany.id, "finalize")).number).toBe("INV-000002"); // the refused attempt used no number
    expect(await stock()).toBe(2);
    expect(((await (await t.call(`/v1/products/${untracked.id}`)).json()) as ProductDto).stock_quantity).toBeNull();
  });

  it("answers every action on another organization's invoice with 404", async () => {
    const theirs = await other.draft();
    for (const [method, path, json] of [
      ["GET", ""],
      ["PATCH", "", { notes: "x" }],
      ["DELETE", ""],
      ["POST", "/finalize"],
      ["POST", "/pay"],
      ["POST", "/void"],
    ] as const) {
      await refusal(await acme.call(`/v1/invoices/${theirs.id}${path}`, { method, json }), 404, "not_found");
    }
    expect(((await (await other.call(`/v1/invoices/${theirs.id}`)).json()) as InvoiceDto).status).toBe("draft");
  });
});

describe("concurrent finalizations", () => {
  it("give consecutive numbers without gaps or duplicates and never take stock below zero", async () => {
    const t = await tenant();
    const product = await t.product({ stock_quantity: 15 });
    const customer = await t.customer();
    const drafts = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.post<InvoiceDto>("/v1/invoices", {
          customer: customer.id,
          lines: i % 4 === 3 ? [{ description: "Service", quantity: 1, unit_amount: 100 }] : [{ product: product.id, quantity: 1 }],
        }),
      ),
    );
    const responses = await Promise.all(drafts.map((draft) => t.call(`/v1/invoices/${draft.id}/finalize`, { method: "POST" })));
    const finalized = await Promise.all(responses.filter((r) => r.status === 200).map((r) => r.json() as Promise<InvoiceDto>));
    const refused = await Promise.all(responses.filter((r) => r.status !== 200).map((r) => errorOf(r)));

    expect(finalized).toHaveLength(15 + 6);
    expect(refused.map((error) => error.code)).toEqual(Array(3).fill("insufficient_stock"));
    expect(finalized.map((invoice) => invoice.number).sort()).toEqual(Array.from({ length: 21 }, (_, i) => `INV-${String(i + 1).padStart(6, "0")}`));
    expect(((await (await t.call(`/v1/products/${product.id}`)).json()) as ProductDto).stock_quantity).toBe(0);
  });

  it("finalize a draft once when it is finalized twice at the same time", async () => {
    const t = await tenant();
    const draft = await t.draft();
    const responses = await Promise.all([1, 2, 3].map(() => t.call(`/v1/invoices/${draft.id}/finalize`, { method: "POST" })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const list = (await (await t.call("/v1/invoices?status=open")).json()) as { data: InvoiceDto[] };
    expect(list.data.map((invoice) => invoice.number)).toEqual(["INV-000001"]);
  });
});

describe("listing invoices", () => {
  it("filters by status (overdue included), customer and invoice date", async () => {
    const t = await tenant();
    const alice = await t.customer({ name: "Alice" });
    const bob = await t.customer({ name: "Bob" });
    const make = (customer: string, issue_date: string | null, due_date: string | null = null) =>
      t.post<InvoiceDto>("/v1/invoices", { customer, issue_date, due_date, lines: [{ description: "x", quantity: 1, unit_amount: 100 }] });
    const draft = await make(alice.id, null);
    const open = await make(alice.id, day(-5), day(25));
    const overdue = await make(bob.id, day(-40), day(-10));
    const paid = await make(bob.id, day(-60), day(-30));
    const voided = await make(alice.id, day(-90), day(-60));
    for (const invoice of [open, overdue, paid, voided]) await t.transition(invoice.id, "finalize");
    await t.transition(paid.id, "pay");
    await t.transition(voided.id, "void");

    const ids = async (query: string) => ((await (await t.call(`/v1/invoices?${query}`)).json()) as { data: InvoiceDto[] }).data.map((invoice) => invoice.id);
    expect(await ids("status=draft")).toEqual([draft.id]);
    expect(await ids("status=open")).toEqual([overdue.id, open.id]);
    expect(await ids("status=overdue")).toEqual([overdue.id]);
    expect(await ids("status=paid")).toEqual([paid.id]);
    expect(await ids("status=void")).toEqual([voided.id]);
    expect(await ids(`customer=${bob.id}`)).toEqual([paid.id, overdue.id]);
    expect(await ids(`from=${day(-45)}&to=${day(-1)}`)).toEqual([overdue.id, open.id]);
    expect(await ids(`from=${day(0)}`)).toEqual([draft.id]); // a draft without issue date is dated by its creation
    expect(await ids(`customer=${alice.id}&to=${day(-6)}`)).toEqual([voided.id]);
    const listed = (await (await t.call("/v1/invoices?status=overdue")).json()) as { data: InvoiceDto[] };
    expect(listed.data[0]!.overdue).toBe(true);
  });

  it("pages newest first without skipping or repeating rows while invoices are added", async () => {
    const t = await tenant();
    const existing: string[] = [];
    for (let i = 0; i < 9; i++) existing.push((await t.draft()).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await t.call(`/v1/invoices?limit=2${cursor ? `&starting_after=${cursor}` : ""}`)).json()) as {
        data: InvoiceDto[];
        next_cursor: string | null;
      };
      seen.push(...page.data.map((invoice) => invoice.id));
      cursor = page.next_cursor;
      await t.draft();
    } while (cursor);
    expect(seen).toEqual([...existing].reverse());
  });

  it("lists only the organization's own invoices", async () => {
    const theirs = await other.draft();
    const mine = (await (await acme.call("/v1/invoices?limit=100")).json()) as { data: InvoiceDto[] };
    expect(mine.data.map((invoice) => invoice.id)).not.toContain(theirs.id);
    expect(mine.data.length).toBeGreaterThan(0);
  });

  it.each([
    ["status=late", "query.status"],
    ["from=2026-13-01", "query.from"],
    ["from=2026-03-01&to=2026-02-01", "query.to"],
    ["limit=1000", "query.limit"],
    ["sort=total", "query"],
  ])("refuses ?%s with 400", async (query, path) => {
    const error = await refusal(await acme.call(`/v1/invoices?${query}`), 400, "validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });
});

itMatchesTheDocument(api, 150);
