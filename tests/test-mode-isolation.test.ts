import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { Mode } from "@/core/enums";
import type { InvoiceDto } from "@/lib/api/schemas/invoices";
import { contractApi, errorOf, itMatchesTheDocument } from "./helpers/api-contract";
import { createOrg, insertKey } from "./helpers/factories";

// Test mode as an attacker would probe it (docs/features/test-mode.md): a key of one mode, given
// an id of the other mode's books, finds nothing and changes nothing, for every operation of the
// served document.

const api = contractApi();
type Json = Record<string, unknown>;

interface Books {
  mode: Mode;
  call: (path: string, init?: Parameters<typeof api.request>[1]) => Promise<Response>;
  post: <T = Json>(path: string, json?: unknown) => Promise<T>;
  customer: string;
  product: string;
  draft: string;
  open: InvoiceDto;
}

let orgId: string;
const books = {} as Record<Mode, Books>;

async function booksOf(mode: Mode): Promise<Books> {
  const { value } = await insertKey(orgId, { mode, name: `${mode} key` });
  const call: Books["call"] = (path, init = {}) => api.request(path, { key: value, ...init });
  const post = async <T>(path: string, json?: unknown): Promise<T> => {
    const response = await call(path, { method: "POST", json });
    expect(response.status, `${mode} POST ${path}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  // The same SKU in both modes: unique within a mode's books only.
  const product = await post<{ id: string }>("/v1/products", { name: `${mode} beans`, sku: "BEANS-1KG", unit_amount: 2490, currency: "EUR" });
  const customer = await post<{ id: string }>("/v1/customers", { name: `${mode} customer`, currency: "EUR" });
  const lines = [{ product: product.id, quantity: 2 }];
  const draft = await post<{ id: string }>("/v1/invoices", { customer: customer.id, lines });
  const open = await post<InvoiceDto>(`/v1/invoices/${(await post<{ id: string }>("/v1/invoices", { customer: customer.id, lines })).id}/finalize`);
  return { mode, call, post, customer: customer.id, product: product.id, draft: draft.id, open };
}

/** Every business row of the organization, both modes: what "changes nothing" compares. */
async function allBooks(): Promise<string> {
  const tables = ["customers", "products", "invoices", "invoice_line_items", "invoice_counters", "idempotency_keys"];
  const dumps = await Promise.all(
    tables.map(async (table) =>
      rowsOf(await getDb().execute(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t where org_id = ${orgId} order by to_jsonb(t)::text`)),
    ),
  );
  return JSON.stringify(dumps);
}

beforeAll(async () => {
  orgId = (await createOrg("enterprise", { rateLimitPerMinute: 100_000 })).id;
  books.live = await booksOf("live");
  books.test = await booksOf("test");
});

const other = (mode: Mode): Mode => (mode === "live" ? "test" : "live");

/** The other books' object a path names, by its resource. */
function foreignId(path: string, of: Books): string {
  if (path.startsWith("/v1/customers/")) return of.customer;
  if (path.startsWith("/v1/products/")) return of.product;
  // An open invoice for the transitions that need one; a draft for edits and deletes.
  return /\/(pay|void)$/.test(path) ? of.open.id : of.draft;
}

/** A body the operation accepts, naming the other books' objects wherever it names one. */
function bodyFor(method: string, path: string, of: Books): unknown {
  if (method === "patch") return path.startsWith("/v1/invoices/") ? { notes: "changed" } : { name: "changed" };
  if (path === "/v1/pdf/generate") return { invoice: of.open.id };
  return undefined;
}

describe.each(["live", "test"] as const)("a %s key", (mode) => {
  it("finds none of the other mode's objects, by any operation of the document, and changes nothing", async () => {
    const mine = books[mode];
    const theirs = books[other(mode)];
    const document = (await (await fetch(api.url("/v1/openapi.json"))).json()) as { paths: Record<string, Record<string, unknown>> };
    const probed: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const name = `${method.toUpperCase()} ${template}`;
        const probes: { path: string; json?: unknown }[] = [];
        if (template.includes("{id}")) {
          probes.push({ path: template.replace("{id}", foreignId(template, theirs)), json: bodyFor(method, template, theirs) });
        } else if (template === "/v1/pdf/generate") {
          probes.push({ path: template, json: bodyFor(method, template, theirs) });
        } else if (method === "get" && ["/v1/customers", "/v1/products", "/v1/invoices"].includes(template)) {
          const cursor = { "/v1/customers": theirs.customer, "/v1/products": theirs.product, "/v1/invoices": theirs.draft }[template]!;
          probes.push({ path: `${template}?starting_after=${cursor}` });
        } else if (method === "post" && template === "/v1/invoices") {
          probes.push({ path: template, json: { customer: theirs.customer, lines: [{ description: "Consulting", quantity: 1, unit_amount: 100 }] } });
          probes.push({ path: template, json: { customer: mine.customer, lines: [{ product: theirs.product, quantity: 1 }] } });
        } else if (["/v1/customers", "/v1/products", "/v1/analytics", "/v1/usage"].includes(template)) {
          // Name no object: their answers' mode is checked by the tests below.
          probed.push(name);
          continue;
        }
        expect(probes.length, `${name} is not probed: say how it could reach the other mode's books`).toBeGreaterThan(0);
        for (const probe of probes) {
          const before = await allBooks();
          const response = await mine.call(probe.path, { method: method.toUpperCase(), json: probe.json });
          expect(response.status, `${name} ${JSON.stringify(probe)}`).toBe(404);
          expect((await errorOf(response)).code).toBe("not_found");
          expect(await allBooks(), `${name} changed the books`).toBe(before);
        }
        probed.push(name);
      }
    }
    expect(probed.length).toBe(Object.values(document.paths).flatMap(Object.keys).length);
  });

  it("lists only its own mode's objects, each saying so", async () => {
    const mine = books[mode];
    for (const path of ["/v1/customers", "/v1/products", "/v1/invoices"]) {
      const page = (await (await mine.call(`${path}?limit=100`)).json()) as { data: { id: string; livemode: boolean }[] };
      expect(page.data.length, path).toBeGreaterThan(0);
      expect(
        page.data.every((object) => object.livemode === (mode === "live")),
        path,
      ).toBe(true);
      const theirs = books[other(mode)];
      expect(page.data.map((object) => object.id)).not.toContain(
        { "/v1/customers": theirs.customer, "/v1/products": theirs.product, "/v1/invoices": theirs.draft }[path],
      );
    }
    const invoice = (await (await mine.call(`/v1/invoices/${mine.open.id}`)).json()) as InvoiceDto;
    expect(invoice.livemode).toBe(mode === "live");
    expect(invoice.lines.every((line) => line.livemode === invoice.livemode)).toBe(true);
  });

  it("renders a PDF of its own invoice only", async () => {
    const mine = books[mode];
    const response = await mine.call("/v1/pdf/generate", { method: "POST", json: { invoice: mine.open.id } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`${mine.open.number}.pdf`);
  });
});

describe("numbering", () => {
  it("gives each mode its own sequence: test invoices never spend a live number", async () => {
    expect(books.live.open.number).toBe("INV-000001");
    expect(books.test.open.number).toBe("INV-000001");
    const test = books.test;
    for (let i = 0; i < 3; i++) {
      const draft = await test.post<{ id: string }>("/v1/invoices", {
        customer: test.customer,
        lines: [{ description: "Run", quantity: 1, unit_amount: 100 }],
      });
      await test.post(`/v1/invoices/${draft.id}/finalize`);
    }
    const live = books.live;
    const draft = await live.post<{ id: string }>("/v1/invoices", { customer: live.customer, lines: [{ description: "Real", quantity: 1, unit_amount: 100 }] });
    expect((await live.post<InvoiceDto>(`/v1/invoices/${draft.id}/finalize`)).number).toBe("INV-000002");
  });
});

describe("idempotency", () => {
  it("keeps each mode's keys apart: the same Idempotency-Key is another request in the other mode", async () => {
    const headers = { "Idempotency-Key": "same-key-both-modes" };
    const created = await Promise.all(
      (["live", "test"] as const).map(async (mode) => {
        const response = await books[mode].call("/v1/customers", { method: "POST", headers, json: { name: "Twice" } });
        expect(response.status).toBe(201);
        expect(response.headers.get("idempotent-replayed")).toBeNull();
        return (await response.json()) as { id: string; livemode: boolean };
      }),
    );
    expect(created[0]!.id).not.toBe(created[1]!.id);
    expect(created.map((customer) => customer.livemode)).toEqual([true, false]);
    const replay = await books.test.call("/v1/customers", { method: "POST", headers, json: { name: "Twice" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(((await replay.json()) as { id: string }).id).toBe(created[1]!.id);
  });
});

describe("analytics", () => {
  it("adds up each mode's invoices only", async () => {
    const figures = async (mode: Mode) => (await (await books[mode].call("/v1/analytics")).json()) as { livemode: boolean; invoice_counts: Json };
    const [live, test] = await Promise.all([figures("live"), figures("test")]);
    expect(live.livemode).toBe(true);
    expect(test.livemode).toBe(false);
    const counted = rowsOf<{ mode: Mode; open: number }>(
      await getDb().execute(sql`select mode, count(*) filter (where status = 'open')::int as open from invoices where org_id = ${orgId} group by mode`),
    );
    expect(live.invoice_counts.open).toBe(counted.find((row) => row.mode === "live")!.open);
    expect(test.invoice_counts.open).toBe(counted.find((row) => row.mode === "test")!.open);
    expect(live.invoice_counts.open).not.toBe(test.invoice_counts.open);
  });
});

describe("the database", () => {
  it("refuses a row that points into the other mode's books", async () => {
    const insert = getDb().execute(
      sql`insert into invoices (org_id, mode, id, customer_id, currency, subtotal, tax, total)
          values (${orgId}, 'test', 'in_crossmode', ${books.live.customer}, 'EUR', 0, 0, 0)`,
    );
    await expect(insert).rejects.toMatchObject({ cause: { code: "23503" } });
  });
});

itMatchesTheDocument(api, 20);
