import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import type { InvoiceDto } from "@/lib/api/schemas/invoices";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";
import { longestEventLoopGap } from "./helpers/event-loop";

const api = contractApi();
let mine: ApiClient;
let theirs: ApiClient;

beforeAll(async () => {
  mine = await apiClient(api);
  theirs = await apiClient(api);
});

async function draft(as: ApiClient, customerName: string, lines: unknown[], fields: Record<string, unknown> = {}): Promise<InvoiceDto> {
  const customer = (await (
    await as.call("/v1/customers", { method: "POST", json: { name: customerName, email: "ap@example.test", currency: "EUR" } })
  ).json()) as { id: string };
  const response = await as.call("/v1/invoices", { method: "POST", json: { customer: customer.id, lines, ...fields } });
  expect(response.status).toBe(201);
  return (await response.json()) as InvoiceDto;
}

const generate = (invoice: unknown, as: ApiClient = mine) => as.call("/v1/pdf/generate", { method: "POST", json: { invoice } });

// pdf.js reads the metrics of the 14 standard fonts (Helvetica…) from its package.
const STANDARD_FONTS = `${path.join(process.cwd(), "node_modules", "pdfjs-dist", "standard_fonts")}/`;

/** The text of every page, in reading order. */
async function textOf(response: Response): Promise<{ text: string; pages: number }> {
  const pdf = await getDocument({ data: new Uint8Array(await response.arrayBuffer()), standardFontDataUrl: STANDARD_FONTS }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  return { text: pages.join("\n"), pages: pdf.numPages };
}

describe("POST /v1/pdf/generate", () => {
  it("renders a finalized invoice with its number, customer, lines, totals and status", async () => {
    const invoice = await draft(
      mine,
      "Jane Doe GmbH",
      [
        { description: "Espresso machine", quantity: 1, unit_amount: 99900, tax_rate: 19 },
        { description: "Descaling tablets", quantity: 3, unit_amount: 1250, tax_rate: 19 },
      ],
      { notes: "Payable by bank transfer." },
    );
    const open = (await (await mine.call(`/v1/invoices/${invoice.id}/finalize`, { method: "POST" })).json()) as InvoiceDto;

    const response = await generate(invoice.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${open.number}.pdf"`);
    const { text } = await textOf(response);
    for (const expected of [
      mine.org.name,
      "Jane Doe GmbH",
      "ap@example.test",
      open.number!,
      "Espresso machine",
      "Descaling tablets",
      "EUR 1,036.50",
      "EUR 196.94",
      "EUR 1,233.44",
      "Open",
      open.issue_date!,
      open.due_date!,
      "Payable by bank transfer.",
    ]) {
      expect(text).toContain(expected);
    }
    expect(open).toMatchObject({ subtotal: 103_650, tax: 18_981 + 713, total: 123_344 }); // 712.5 rounds up to 713
  });

  it("renders a draft under a draft file name", async () => {
    const invoice = await draft(mine, "Draft Customer", [{ description: "Design", quantity: 2, unit_amount: 5000 }]);
    const response = await generate(invoice.id);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="draft-${invoice.id}.pdf"`);
    const { text } = await textOf(response);
    expect(text).toContain("Draft");
    expect(text).toContain("Draft Customer");
    expect(text).toContain("EUR 100.00");
  });

  it("prints characters the PDF fonts lack as ? instead of failing", async () => {
    const invoice = await draft(mine, "Zoë 李 Ltd", [{ description: "Übersetzung → 日本語", quantity: 1, unit_amount: 100 }]);
    const { text } = await textOf(await generate(invoice.id));
    expect(text).toContain("Zoë ? Ltd");
    expect(text).toContain("Übersetzung ? ???");
  });

  it("continues on further pages when the lines do not fit on one", async () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({ description: `Item number ${i + 1}`, quantity: 1, unit_amount: 100 }));
    const invoice = await draft(mine, "Many Lines AG", lines);
    const { text, pages } = await textOf(await generate(invoice.id));
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain("Item number 120");
    expect(text).toContain("EUR 120.00");
  });

  it("renders an invoice at every limit without holding the event loop (50 ms)", async () => {
    const description = "Espresso beans, single origin, medium roast. ".repeat(11).slice(0, 500);
    const lines = Array.from({ length: 250 }, () => ({ description, quantity: 1_000, unit_amount: 9_000_000_000, tax_rate: 19.9999 }));
    const invoice = await draft(mine, "Every Limit KG", lines, { notes: description.repeat(4) });
    await generate(invoice.id); // the worker thread starts and loads pdf-lib outside the measurement
    const started = performance.now();
    const { result: bytes, longestGapMs } = await longestEventLoopGap(async () => new Uint8Array(await (await generate(invoice.id)).arrayBuffer()));
    const elapsed = performance.now() - started;
    // A PDF of this size: the layout itself takes hundreds of ms; the event loop stays free meanwhile.
    expect(bytes.length).toBeGreaterThan(50_000);
    expect(longestGapMs, `longest event-loop gap ${longestGapMs.toFixed(1)} ms of ${elapsed.toFixed(0)} ms`).toBeLessThan(50);
  });

  it("answers unknown and other organizations' invoices with 404", async () => {
    const other = await draft(theirs, "Their Customer", [{ description: "x", quantity: 1, unit_amount: 1 }]);
    for (const id of [other.id, "in_doesnotexist"]) {
      const response = await generate(id);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("not_found");
    }
    expect((await generate(other.id, theirs)).status).toBe(200);
  });

  it.each([
    ["no invoice", {}, "invoice"],
    ["an invoice id of the wrong type", { invoice: 42 }, "invoice"],
    ["an unknown field", { invoice: "in_x", format: "A4" }, "json"],
  ])("refuses %s with 400", async (_label, json, path) => {
    const response = await mine.call("/v1/pdf/generate", { method: "POST", json });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.map((detail) => detail.path)).toContain(path);
  });
});

itMatchesTheDocument(api, 15);
