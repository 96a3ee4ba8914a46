import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { formatMoney } from "@/lib/money";
import type { InvoiceDto } from "../schemas/invoices";

const PAGE = { width: 595.28, height: 841.89 }; // A4 in points
const MARGIN = 50;
const GREY = rgb(0.42, 0.45, 0.5);
const COLUMNS = { description: MARGIN, quantity: 330, unitPrice: 420, tax: 465, amount: PAGE.width - MARGIN };

/**
 * Lays text out top to bottom, starting a new page when the current one is full. The standard
 * fonts only cover Windows-1252, so characters outside it print as "?" rather than failing.
 */
class Layout {
  private page!: PDFPage;
  private y = 0;
  private readonly supported: Set<number>;

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
    private readonly footer: string,
  ) {
    this.supported = new Set(font.getCharacterSet());
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
    const pageNumber = this.doc.getPageCount();
    this.page.drawText(this.clean(`${this.footer} · page ${pageNumber}`), { x: MARGIN, y: MARGIN / 2, size: 8, font: this.font, color: GREY });
  }

  clean(text: string): string {
    return [...text].map((char) => (this.supported.has(char.codePointAt(0)!) ? char : "?")).join("");
  }

  /** Reserves `height` points, moving to a new page when they do not fit. */
  advance(height: number) {
    if (this.y - height < MARGIN) this.newPage();
    this.y -= height;
  }

  gap(height: number) {
    this.y -= height;
  }

  text(value: string, x: number, options: { size?: number; bold?: boolean; align?: "left" | "right"; grey?: boolean } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const text = this.clean(value);
    const left = options.align === "right" ? x - font.widthOfTextAtSize(text, size) : x;
    this.page.drawText(text, { x: left, y: this.y, size, font, color: options.grey ? GREY : rgb(0.07, 0.09, 0.15) });
  }

  /** Splits text into lines no wider than `width` at the given size. */
  wrap(value: string, width: number, size = 10): string[] {
    const lines: string[] = [];
    for (const paragraph of value.split("\n").map((part) => this.clean(part))) {
      let line = "";
      for (const word of paragraph.split(/\s+/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (line && this.font.widthOfTextAtSize(candidate, size) > width) {
          lines.push(line);
          line = word;
        } else line = candidate;
      }
      lines.push(line);
    }
    return lines;
  }

  rule() {
    this.page.drawLine({ start: { x: MARGIN, y: this.y - 4 }, end: { x: PAGE.width - MARGIN, y: this.y - 4 }, thickness: 0.5, color: GREY });
  }
}

function addressLines(address: InvoiceDto["customer_details"]["address"]): string[] {
  if (!address) return [];
  const cityLine = [address.postal_code, address.city, address.state].filter(Boolean).join(" ");
  return [address.line1, address.line2, cityLine, address.country].filter((line): line is string => Boolean(line));
}

const STATUS_LABELS = { draft: "Draft", open: "Open", paid: "Paid", void: "Void" } as const;

type Money = (amount: number) => string;

/** The organization, the number, the status and the dates, at the top. */
function drawHeader(layout: Layout, organization: string, invoice: InvoiceDto): void {
  const right = COLUMNS.amount;
  layout.advance(20);
  layout.text(organization, MARGIN, { size: 18, bold: true });
  layout.text("INVOICE", right, { size: 18, bold: true, align: "right" });
  layout.advance(18);
  layout.text(invoice.number ?? "Not yet numbered (draft)", right, { align: "right" });
  const status = invoice.overdue ? "Open, overdue" : STATUS_LABELS[invoice.status];
  for (const [label, value] of [
    ["Status", status],
    ["Issue date", invoice.issue_date ?? "on finalization"],
    ["Due date", invoice.due_date ?? "on finalization"],
  ]) {
    layout.advance(14);
    layout.text(`${label}: ${value}`, right, { align: "right", grey: label !== "Status", bold: label === "Status" });
  }
}

/** The customer as the invoice was made out to them. */
function drawBillTo(layout: Layout, customer: InvoiceDto["customer_details"]): void {
  layout.advance(24);
  layout.text("Bill to", MARGIN, { grey: true, size: 9 });
  layout.advance(14);
  layout.text(customer.name, MARGIN, { bold: true, size: 11 });
  const contact = [customer.email, ...addressLines(customer.address), customer.phone, customer.tax_id && `Tax id: ${customer.tax_id}`];
  for (const line of contact.filter((value): value is string => Boolean(value))) {
    layout.advance(13);
    layout.text(line, MARGIN);
  }
}

/** The lines' table, a long description wrapped under its row. */
function drawLines(layout: Layout, lines: InvoiceDto["lines"], money: Money): void {
  layout.advance(30);
  layout.text("Description", COLUMNS.description, { bold: true, size: 9 });
  layout.text("Qty", COLUMNS.quantity, { bold: true, size: 9, align: "right" });
  layout.text("Unit price", COLUMNS.unitPrice, { bold: true, size: 9, align: "right" });
  layout.text("Tax", COLUMNS.tax, { bold: true, size: 9, align: "right" });
  layout.text("Amount", COLUMNS.amount, { bold: true, size: 9, align: "right" });
  layout.rule();
  for (const line of lines) {
    const description = layout.wrap(line.description, COLUMNS.quantity - COLUMNS.description - 40);
    layout.advance(16);
    layout.text(description[0]!, COLUMNS.description);
    layout.text(String(line.quantity), COLUMNS.quantity, { align: "right" });
    layout.text(money(line.unit_amount), COLUMNS.unitPrice, { align: "right" });
    layout.text(`${line.tax_rate}%`, COLUMNS.tax, { align: "right" });
    layout.text(money(line.amount), COLUMNS.amount, { align: "right" });
    for (const more of description.slice(1)) {
      layout.advance(12);
      layout.text(more, COLUMNS.description);
    }
  }
  layout.rule();
}

/** Subtotal, tax and total, and how the tax was rounded. */
function drawTotals(layout: Layout, invoice: InvoiceDto, money: Money): void {
  const right = COLUMNS.amount;
  layout.gap(6);
  for (const [label, amount, bold] of [
    ["Subtotal", invoice.subtotal, false],
    ["Tax", invoice.tax, false],
    ["Total", invoice.total, true],
  ] as const) {
    layout.advance(bold ? 18 : 14);
    layout.text(label, COLUMNS.unitPrice, { bold, size: bold ? 12 : 10 });
    layout.text(money(amount), right, { bold, size: bold ? 12 : 10, align: "right" });
  }
  const taxRates = [...new Set(invoice.lines.map((line) => line.tax_rate))].filter((rate) => rate > 0);
  if (taxRates.length) {
    layout.advance(14);
    layout.text(`Tax per line at ${taxRates.map((rate) => `${rate}%`).join(", ")}, rounded half up to the minor unit.`, right, {
      size: 8,
      grey: true,
      align: "right",
    });
  }
}

function drawNotes(layout: Layout, notes: string): void {
  layout.advance(30);
  layout.text("Notes", MARGIN, { grey: true, size: 9 });
  for (const line of layout.wrap(notes, PAGE.width - 2 * MARGIN)) {
    layout.advance(13);
    layout.text(line, MARGIN);
  }
}

/** The invoice as an A4 PDF: organization, customer, number, dates, lines, totals and status. */
export async function renderInvoicePdf(organization: string, invoice: InvoiceDto): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = invoice.number ? `Invoice ${invoice.number}` : `Draft invoice ${invoice.id}`;
  doc.setTitle(title);
  doc.setAuthor(organization);
  doc.setCreationDate(new Date(invoice.created_at));
  const layout = new Layout(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold), `${organization} · ${title}`);
  const money: Money = (amount) => formatMoney(amount, invoice.currency);
  drawHeader(layout, organization, invoice);
  drawBillTo(layout, invoice.customer_details);
  drawLines(layout, invoice.lines, money);
  drawTotals(layout, invoice, money);
  if (invoice.notes) drawNotes(layout, invoice.notes);
  return doc.save();
}
