import { beforeAll, describe, expect, it } from "vitest";
import type { CustomerDto } from "@/lib/api/schemas/customers";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";

const api = contractApi();
let mine: ApiClient;
let theirs: ApiClient;

beforeAll(async () => {
  mine = await apiClient(api);
  theirs = await apiClient(api);
});

const call: ApiClient["call"] = (path, init) => mine.call(path, init);

async function createCustomer(fields: Record<string, unknown> = {}, as: ApiClient = mine): Promise<CustomerDto> {
  const response = await as.call("/v1/customers", { method: "POST", json: { name: "Jane Doe GmbH", ...fields } });
  expect(response.status).toBe(201);
  return (await response.json()) as CustomerDto;
}

async function openInvoiceFor(customer: string): Promise<string> {
  const draft = await call("/v1/invoices", {
    method: "POST",
    json: { customer, currency: "EUR", lines: [{ description: "Consulting", quantity: 2, unit_amount: 15000 }] },
  });
  const { id } = (await draft.json()) as { id: string };
  expect((await call(`/v1/invoices/${id}/finalize`, { method: "POST" })).status).toBe(200);
  return id;
}

describe("creating a customer", () => {
  it("returns the customer with every field, a cus_ id and UTC timestamps", async () => {
    const fields = {
      name: "  Jane Doe GmbH ",
      email: "billing@janedoe.example",
      phone: "+49 30 1234567",
      address: { line1: "Hauptstraße 5", city: "Berlin", postal_code: "10115", country: "DE" },
      tax_id: "DE123456789",
      currency: "EUR",
      metadata: { crm_id: "A-1042" },
    };
    const customer = await createCustomer(fields);
    expect(customer).toMatchObject({ ...fields, name: "Jane Doe GmbH", object: "customer" });
    expect(customer.id).toMatch(/^cus_[0-9A-Za-z]{20}$/);
    expect(customer.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("fills what was left out with null and empty metadata", async () => {
    const customer = await createCustomer({ name: "Bare" });
    expect(customer).toMatchObject({ email: null, phone: null, address: null, tax_id: null, currency: null, metadata: {} });
  });

  it.each([
    ["no name", {}, "name"],
    ["an empty name", { name: "   " }, "name"],
    ["a name of the wrong type", { name: 42 }, "name"],
    ["a malformed email", { name: "A", email: "not-an-email" }, "email"],
    ["an unknown currency", { name: "A", currency: "XYZ" }, "currency"],
    ["a currency in lower case", { name: "A", currency: "eur" }, "currency"],
    ["a country that is not a code", { name: "A", address: { country: "Germany" } }, "address.country"],
    ["an unknown address field", { name: "A", address: { street: "Main St" } }, "address"],
    ["too many metadata keys", { name: "A", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
    ["a long metadata value", { name: "A", metadata: { note: "x".repeat(501) } }, "metadata.note"],
    ["a field that does not exist", { name: "A", nickname: "JD" }, "json"],
  ])("refuses %s with 400 and details", async (_label, json, path) => {
    const response = await call("/v1/customers", { method: "POST", json });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });

  it("refuses a body that is not JSON with invalid_json", async () => {
    const response = await call("/v1/customers", { method: "POST", body: "{name: 'x'", headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("invalid_json");
  });

  it("refuses a body that is not sent as JSON with 415 unsupported_media_type", async () => {
    const response = await call("/v1/customers", { method: "POST", body: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe("unsupported_media_type");
  });

  it("refuses a body over 1 MiB with 413 payload_too_large", async () => {
    // The server answers before reading the body and drops the connection: don't leave it in the pool.
    const response = await call("/v1/customers", {
      method: "POST",
      json: { name: "A", metadata: { blob: "x".repeat(1024 * 1024) } },
      headers: { Connection: "close" },
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("payload_too_large");
  });
});

describe("retrieving and updating a customer", () => {
  it("retrieves the customer as created", async () => {
    const customer = await createCustomer({ email: "a@example.test" });
    const response = await call(`/v1/customers/${customer.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(customer);
  });

  it("changes only the fields sent, and null clears a field", async () => {
    const customer = await createCustomer({ email: "old@example.test", phone: "+1 555 0100", metadata: { a: "1" } });
    const response = await call(`/v1/customers/${customer.id}`, { method: "PATCH", json: { email: "new@example.test", phone: null } });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as CustomerDto;
    expect(updated).toMatchObject({ name: customer.name, email: "new@example.test", phone: null, metadata: { a: "1" } });
    expect(updated.updated_at >= customer.updated_at).toBe(true);
  });

  it.each([
    ["a null name", { name: null }, "name"],
    ["an unknown field", { id: "cus_other" }, "json"],
    ["an unknown currency", { currency: "ABC" }, "currency"],
  ])("refuses an update with %s", async (_label, json, path) => {
    const customer = await createCustomer();
    const response = await call(`/v1/customers/${customer.id}`, { method: "PATCH", json });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.map((detail) => detail.path)).toContain(path);
  });

  it("answers unknown ids and other organizations' customers with 404 not_found", async () => {
    const other = await createCustomer({ name: "Theirs" }, theirs);
    for (const id of ["cus_doesnotexist0000000", other.id]) {
      for (const [method, json] of [["GET"], ["PATCH", { name: "Mine now" }], ["DELETE"]] as const) {
        const response = await call(`/v1/customers/${id}`, { method, json });
        expect(response.status).toBe(404);
        expect((await errorOf(response)).code).toBe("not_found");
      }
    }
    const response = await theirs.call(`/v1/customers/${other.id}`);
    expect((await response.json()) as CustomerDto).toMatchObject({ name: "Theirs" });
  });
});

describe("listing customers", () => {
  it("pages newest first without skipping or repeating rows while customers are added", async () => {
    const paging = await apiClient(api);
    const existing: string[] = [];
    for (let i = 0; i < 23; i++) existing.push((await createCustomer({ name: `Paging ${i}` }, paging)).id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await paging.call(`/v1/customers?limit=5${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { object: string; data: CustomerDto[]; has_more: boolean; next_cursor: string | null };
      expect(page.object).toBe("list");
      seen.push(...page.data.map((customer) => customer.id));
      cursor = page.next_cursor;
      expect(cursor === null).toBe(!page.has_more);
      pages++;
      await createCustomer({ name: `Added while paging ${pages}` }, paging);
    } while (cursor);

    expect(pages).toBe(5);
    expect(seen).toEqual([...existing].reverse());
  });

  it("finds customers by a part of their name or email, ignoring case", async () => {
    const searching = await apiClient(api);
    const acme = await createCustomer({ name: "ACME Corp", email: "ap@acme.example" }, searching);
    const globex = await createCustomer({ name: "Globex", email: "billing@ACME-partner.example" }, searching);
    await createCustomer({ name: "100% Natural", email: "x@natural.example" }, searching);
    const search = async (text: string) => {
      const response = await searching.call(`/v1/customers?search=${encodeURIComponent(text)}`);
      return ((await response.json()) as { data: CustomerDto[] }).data.map((customer) => customer.id);
    };
    expect(await search("acme")).toEqual([globex.id, acme.id]);
    expect(await search("corp")).toEqual([acme.id]);
    expect(await search("%")).toHaveLength(1);
    expect(await search("_")).toEqual([]);
  });

  it("lists only the organization's own customers", async () => {
    const other = await createCustomer({ name: "Not yours" }, theirs);
    const response = await call("/v1/customers?limit=100");
    const ids = ((await response.json()) as { data: CustomerDto[] }).data.map((customer) => customer.id);
    expect(ids).not.toContain(other.id);
  });

  it.each([
    ["limit=0", "query.limit"],
    ["limit=101", "query.limit"],
    ["limit=ten", "query.limit"],
    ["page=2", "query"],
  ])("refuses ?%s with 400", async (query, path) => {
    const response = await call(`/v1/customers?${query}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.map((detail) => detail.path)).toContain(path);
  });

  it("answers an unknown cursor with 404", async () => {
    const response = await call("/v1/customers?starting_after=cus_unknown000000000000");
    expect(response.status).toBe(404);
    expect((await errorOf(response)).details?.[0]?.path).toBe("query.starting_after");
  });
});

describe("deleting a customer", () => {
  it("deletes a customer without invoices", async () => {
    const customer = await createCustomer();
    const response = await call(`/v1/customers/${customer.id}`, { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: customer.id, object: "customer", livemode: true, deleted: true });
    expect((await call(`/v1/customers/${customer.id}`)).status).toBe(404);
    expect((await call(`/v1/customers/${customer.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses while an invoice is open, then keeps the paid invoice and deletes the drafts", async () => {
    const customer = await createCustomer({ name: "Has invoices" });
    const open = await openInvoiceFor(customer.id);
    const draft = (await (
      await call("/v1/invoices", {
        method: "POST",
        json: { customer: customer.id, currency: "EUR", lines: [{ description: "Later", quantity: 1, unit_amount: 100 }] },
      })
    ).json()) as { id: string };

    const refused = await call(`/v1/customers/${customer.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe("customer_has_open_invoices");
    expect((await call(`/v1/customers/${customer.id}`)).status).toBe(200);

    expect((await call(`/v1/invoices/${open}/pay`, { method: "POST" })).status).toBe(200);
    expect((await call(`/v1/customers/${customer.id}`, { method: "DELETE" })).status).toBe(200);
    const paid = await call(`/v1/invoices/${open}`);
    expect(((await paid.json()) as { customer_details: { name: string } }).customer_details.name).toBe("Has invoices");
    expect((await call(`/v1/invoices/${draft.id}`)).status).toBe(404);
    const created = await call("/v1/invoices", {
      method: "POST",
      json: { customer: customer.id, currency: "EUR", lines: [{ description: "x", quantity: 1, unit_amount: 1 }] },
    });
    expect(created.status).toBe(404);
  });
});

itMatchesTheDocument(api, 60);
