import { beforeAll, describe, expect, it } from "vitest";
import type { ProductDto } from "@/lib/api/schemas/products";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";

const api = contractApi();
let mine: ApiClient;
let theirs: ApiClient;

beforeAll(async () => {
  mine = await apiClient(api);
  theirs = await apiClient(api);
});

const call: ApiClient["call"] = (path, init) => mine.call(path, init);

const beans = { name: "Espresso beans 1 kg", unit_amount: 2490, currency: "EUR", tax_rate: 7, stock_quantity: 40 };

async function createProduct(fields: Record<string, unknown> = {}, as: ApiClient = mine): Promise<ProductDto> {
  const response = await as.call("/v1/products", { method: "POST", json: { ...beans, ...fields } });
  expect(response.status).toBe(201);
  return (await response.json()) as ProductDto;
}

describe("creating a product", () => {
  it("returns the product with a prod_ id, active and with its stock", async () => {
    const product = await createProduct({ description: "Medium roast", sku: "BEAN-1KG" });
    expect(product).toMatchObject({ ...beans, object: "product", description: "Medium roast", sku: "BEAN-1KG", active: true });
    expect(product.id).toMatch(/^prod_/);
  });

  it("defaults to no tax, no SKU and untracked stock", async () => {
    const response = await call("/v1/products", { method: "POST", json: { name: "Consulting hour", unit_amount: 12000, currency: "USD" } });
    expect(await response.json()).toMatchObject({ tax_rate: 0, sku: null, stock_quantity: null, description: null });
  });

  it("keeps tax rates with four decimals exactly", async () => {
    expect((await createProduct({ tax_rate: 8.875, sku: null })).tax_rate).toBe(8.875);
  });

  it("refuses a SKU another product of the organization has, but not one of another organization", async () => {
    await createProduct({ sku: "DUP-1" });
    const response = await call("/v1/products", { method: "POST", json: { ...beans, sku: "DUP-1" } });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("sku_taken");
    await createProduct({ sku: "DUP-1" }, theirs);
  });

  it.each([
    ["a negative price", { unit_amount: -1 }, "unit_amount"],
    ["a fractional price", { unit_amount: 10.5 }, "unit_amount"],
    ["a price beyond 2^53 − 1", { unit_amount: Number.MAX_SAFE_INTEGER + 2 }, "unit_amount"],
    ["a price as a string", { unit_amount: "24.90" }, "unit_amount"],
    ["an unknown currency", { currency: "EURO" }, "currency"],
    ["a tax rate over 100", { tax_rate: 101 }, "tax_rate"],
    ["a tax rate with five decimals", { tax_rate: 8.87501 }, "tax_rate"],
    ["negative stock", { stock_quantity: -1 }, "stock_quantity"],
    ["a SKU with spaces", { sku: "BEAN 1KG" }, "sku"],
    ["no name", { name: undefined }, "name"],
    ["an unknown field", { color: "brown" }, "json"],
  ])("refuses %s with 400 and details", async (_label, fields, path) => {
    const response = await call("/v1/products", { method: "POST", json: { ...beans, ...fields } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });
});

describe("retrieving, updating and archiving a product", () => {
  it("retrieves the product as created", async () => {
    const product = await createProduct();
    expect(await (await call(`/v1/products/${product.id}`)).json()).toEqual(product);
  });

  it("changes only the fields sent: price, stock, and null stock stops tracking", async () => {
    const product = await createProduct({ sku: "UPD-1" });
    const priced = await call(`/v1/products/${product.id}`, { method: "PATCH", json: { unit_amount: 2690, stock_quantity: 12 } });
    expect(await priced.json()).toMatchObject({ name: beans.name, sku: "UPD-1", unit_amount: 2690, stock_quantity: 12 });
    const untracked = await call(`/v1/products/${product.id}`, { method: "PATCH", json: { stock_quantity: null, sku: null } });
    expect(await untracked.json()).toMatchObject({ stock_quantity: null, sku: null });
  });

  it("refuses to take a SKU of another product on update", async () => {
    await createProduct({ sku: "TAKEN-2" });
    const product = await createProduct({ sku: "FREE-2" });
    const response = await call(`/v1/products/${product.id}`, { method: "PATCH", json: { sku: "TAKEN-2" } });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("sku_taken");
  });

  it.each([
    ["negative stock", { stock_quantity: -5 }, "stock_quantity"],
    ["an unknown field", { price: 10 }, "json"],
    ["a null name", { name: null }, "name"],
  ])("refuses an update with %s", async (_label, json, path) => {
    const product = await createProduct();
    const response = await call(`/v1/products/${product.id}`, { method: "PATCH", json });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.map((detail) => detail.path)).toContain(path);
  });

  it("archives a product, keeps it retrievable, and restores it with active: true", async () => {
    const product = await createProduct();
    const archived = await call(`/v1/products/${product.id}/archive`, { method: "POST" });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ id: product.id, active: false });
    expect((await call(`/v1/products/${product.id}/archive`, { method: "POST" })).status).toBe(200);
    expect(await (await call(`/v1/products/${product.id}`)).json()).toMatchObject({ active: false });
    const restored = await call(`/v1/products/${product.id}`, { method: "PATCH", json: { active: true } });
    expect(await restored.json()).toMatchObject({ active: true });
  });

  it("answers unknown ids and other organizations' products with 404 not_found", async () => {
    const other = await createProduct({ sku: null }, theirs);
    for (const id of ["prod_unknown", other.id]) {
      for (const [method, path, json] of [
        ["GET", ""],
        ["PATCH", "", { name: "Mine" }],
        ["POST", "/archive"],
      ] as const) {
        const response = await call(`/v1/products/${id}${path}`, { method, json });
        expect(response.status).toBe(404);
        expect((await errorOf(response)).code).toBe("not_found");
      }
    }
    expect(await (await theirs.call(`/v1/products/${other.id}`)).json()).toMatchObject({ active: true, name: beans.name });
  });
});

describe("listing products", () => {
  it("pages newest first without skipping or repeating rows while products are added", async () => {
    const paging = await apiClient(api);
    const existing: string[] = [];
    for (let i = 0; i < 12; i++) existing.push((await createProduct({ name: `Paging ${i}`, sku: null }, paging)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await paging.call(`/v1/products?limit=4${cursor ? `&starting_after=${cursor}` : ""}`);
      const page = (await response.json()) as { data: ProductDto[]; has_more: boolean; next_cursor: string | null };
      seen.push(...page.data.map((product) => product.id));
      cursor = page.next_cursor;
      await createProduct({ name: "Added while paging", sku: null }, paging);
    } while (cursor);
    expect(seen).toEqual([...existing].reverse());
  });

  it("filters by active", async () => {
    const filtering = await apiClient(api);
    const kept = await createProduct({ sku: null }, filtering);
    const archived = await createProduct({ sku: null }, filtering);
    await filtering.call(`/v1/products/${archived.id}/archive`, { method: "POST" });
    const ids = async (query: string) =>
      ((await (await filtering.call(`/v1/products${query}`)).json()) as { data: ProductDto[] }).data.map((product) => product.id);
    expect(await ids("?active=true")).toEqual([kept.id]);
    expect(await ids("?active=false")).toEqual([archived.id]);
    expect(await ids("")).toEqual([archived.id, kept.id]);
  });

  it.each([
    ["active=yes", "query.active"],
    ["limit=-1", "query.limit"],
    ["starting_after=prod_x&sort=name", "query"],
  ])("refuses ?%s with 400", async (query, path) => {
    const response = await call(`/v1/products?${query}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.map((detail) => detail.path)).toContain(path);
  });

  it("answers another organization's product as a cursor with 404", async () => {
    const other = await createProduct({ sku: null }, theirs);
    expect((await call(`/v1/products?starting_after=${other.id}`)).status).toBe(404);
  });
});

itMatchesTheDocument(api, 50);
