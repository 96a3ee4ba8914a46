import type { Books } from "@/core/enums";
import type { Tx } from "@/db";
import { closeOpenInvoice, findInvoice, invoiceTransaction, takeInvoiceNumber, updateInvoiceColumns, type InvoiceStatus } from "@/db/queries/invoices";
import { addStock, lockStockedProducts, stockedUnitsOnInvoice } from "@/db/queries/products";
import { utcDay, utcDayStart } from "@/core/time";
import { ApiError } from "../errors";
import type { InvoiceDto } from "../schemas/invoices";
import { detailsOf } from "./invoice-rows";
import { getInvoice, lockDraft } from "./invoices";
import { invalid, notFound } from "./refusals";

const PAYMENT_TERMS_DAYS = 30;

function addDays(day: string, days: number): string {
  const date = utcDayStart(day);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

/** Adds `sign × units` to each stocked product the invoice sells; refuses to go below zero. */
async function moveStock(tx: Tx, books: Books, invoiceId: string, sign: 1 | -1) {
  await lockStockedProducts(tx, books, invoiceId);
  for (const { productId, name, stock, units } of await stockedUnitsOnInvoice(tx, books, invoiceId)) {
    if (sign < 0 && stock! < units) {
      throw ApiError.of("insufficient_stock", `Not enough stock of ${name} (${productId}): ${stock} in stock, ${units} on invoice ${invoiceId}.`);
    }
    await addStock(tx, books, productId, sign * units);
  }
}

/** The organization's next invoice number, INV-000123: numbers have no gaps and no duplicates (see takeInvoiceNumber). */
async function nextNumber(tx: Tx, books: Books): Promise<string> {
  return `INV-${String(await takeInvoiceNumber(tx, books)).padStart(6, "0")}`;
}

/** draft → open: dates settled, customer details frozen, stock taken, number given; all or nothing. */
export async function finalizeInvoice(books: Books, id: string): Promise<InvoiceDto> {
  return invoiceTransaction(async (tx) => {
    const { invoice, customers } = await lockDraft(tx, books, id, "finalized");
    const issueDate = invoice.issueDate ?? utcDay(new Date());
    const dueDate = invoice.dueDate ?? addDays(issueDate, PAYMENT_TERMS_DAYS);
    if (dueDate < issueDate) {
      throw invalid("due_date", `The due date ${dueDate} is before ${issueDate}, the issue date the invoice would get: update the draft's dates first.`);
    }
    await moveStock(tx, books, id, -1);
    const now = new Date();
    await updateInvoiceColumns(tx, books, id, {
      status: "open",
      number: await nextNumber(tx, books),
      issueDate,
      dueDate,
      customerDetails: detailsOf(customers[0]!),
      finalizedAt: now,
      updatedAt: now,
    });
    return getInvoice(books, id, tx);
  });
}

/** open → paid or void; two concurrent transitions cannot both win (see closeOpenInvoice). */
async function closeOpen(tx: Tx, books: Books, id: string, to: Extract<InvoiceStatus, "paid" | "void">, verb: string) {
  if (await closeOpenInvoice(tx, books, id, to)) return;
  const current = await findInvoice(books, id, tx);
  if (!current) throw notFound(id);
  throw ApiError.of("invoice_not_open", `Invoice ${id} is ${current.status}: only open invoices can be ${verb}.`);
}

export async function payInvoice(books: Books, id: string): Promise<InvoiceDto> {
  return invoiceTransaction(async (tx) => {
    await closeOpen(tx, books, id, "paid", "marked paid");
    return getInvoice(books, id, tx);
  });
}

/** open → void: the units it sold go back into stock. */
export async function voidInvoice(books: Books, id: string): Promise<InvoiceDto> {
  return invoiceTransaction(async (tx) => {
    await closeOpen(tx, books, id, "void", "voided");
    await moveStock(tx, books, id, 1);
    return getInvoice(books, id, tx);
  });
}
