import type { Books } from "@/core/enums";
import type { DbOrTx, Tx } from "@/db";
import { lockCustomers } from "@/db/queries/customers";
import {
  deleteDraft,
  findInvoice,
  insertInvoice,
  invoicesPage,
  invoiceTransaction,
  linesOfInvoices,
  lockInvoice,
  replaceLines,
  updateInvoiceColumns,
  type InvoiceRow,
} from "@/db/queries/invoices";
import { ApiError } from "../errors";
import type { InvoiceCreateInput, InvoiceDto, InvoiceListFilter, InvoiceUpdateInput } from "../schemas/invoices";
import { asInputs, priceLines } from "./invoice-lines";
import { withLines } from "./invoice-rows";
import { page, readPage } from "./pagination";
import { sent } from "./patch";
import { deletedObject } from "./deleted";
import { invalid, notFound } from "./refusals";

export async function listInvoices(books: Books, query: InvoiceListFilter) {
  const filter = { status: query.status, customerId: query.customer, from: query.from, to: query.to };
  const rows = await readPage(query, (request) => invoicesPage(books, filter, request));
  const { data, ...envelope } = page(rows, query.limit);
  return { ...envelope, data: await withLines(books, data) };
}

export async function getInvoice(books: Books, id: string, db?: DbOrTx): Promise<InvoiceDto> {
  const row = await findInvoice(books, id, db);
  if (!row) throw notFound(id);
  return (await withLines(books, [row], db))[0]!;
}

function checkDates(issueDate: string | null | undefined, dueDate: string | null | undefined) {
  if (issueDate && dueDate && dueDate < issueDate) throw invalid("due_date", `The due date ${dueDate} is before the issue date ${issueDate}.`);
}

export async function createInvoice(books: Books, input: InvoiceCreateInput): Promise<InvoiceDto> {
  checkDates(input.issue_date, input.due_date);
  return invoiceTransaction(async (tx) => {
    const [customer] = await lockCustomers(tx, books, [input.customer]);
    if (!customer) throw notFound(input.customer, "customer");
    const currency = input.currency ?? customer.currency;
    if (!currency) throw invalid("currency", `Customer ${customer.id} has no default currency: send the invoice's currency.`);
    const priced = await priceLines(tx, books, currency, input.lines);
    const id = await insertInvoice(tx, books, {
      customerId: customer.id,
      currency,
      notes: input.notes ?? null,
      issueDate: input.issue_date ?? null,
      dueDate: input.due_date ?? null,
      subtotal: priced.subtotal,
      tax: priced.tax,
      total: priced.total,
    });
    await replaceLines(tx, books, id, priced.lines);
    return getInvoice(books, id, tx);
  });
}

/**
 * Locks a draft for a change: first its customers (see lockCustomers), then the invoice row.
 * A concurrent update may have moved the draft to another customer between the two reads; then
 * the locks are taken again for the customer it has now.
 */
export async function lockDraft(tx: Tx, books: Books, id: string, verb: string, newCustomer?: string) {
  for (;;) {
    const seen = await findInvoice(books, id, tx);
    if (!seen) throw notFound(id);
    const locked = await lockCustomers(tx, books, newCustomer ? [seen.customerId, newCustomer] : [seen.customerId]);
    const row = await lockInvoice(tx, books, id);
    if (!row) throw notFound(id);
    if (row.status !== "draft") throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be ${verb}.`);
    if (row.customerId === seen.customerId) return { invoice: row, customers: locked };
  }
}

export async function updateInvoice(books: Books, id: string, input: InvoiceUpdateInput): Promise<InvoiceDto> {
  return invoiceTransaction(async (tx) => {
    const { invoice, customers } = await lockDraft(tx, books, id, "edited", input.customer);
    if (input.customer && !customers.some((customer) => customer.id === input.customer)) throw notFound(input.customer, "customer");
    const changes = sent({ customerId: input.customer, currency: input.currency, notes: input.notes, issueDate: input.issue_date, dueDate: input.due_date });
    const merged: InvoiceRow = { ...invoice, ...changes };
    checkDates(merged.issueDate, merged.dueDate);
    // New lines, or a new currency the products must be priced in: the amounts are computed again.
    const priced =
      input.lines || input.currency ? await priceLines(tx, books, merged.currency, input.lines ?? asInputs(await linesOfInvoices(books, [id], tx))) : null;
    if (priced) await replaceLines(tx, books, id, priced.lines);
    await updateInvoiceColumns(tx, books, id, {
      ...changes,
      ...(priced && { subtotal: priced.subtotal, tax: priced.tax, total: priced.total }),
      updatedAt: new Date(),
    });
    return getInvoice(books, id, tx);
  });
}

export async function deleteInvoice(books: Books, id: string): Promise<ReturnType<typeof deletedObject<"invoice">>> {
  if (!(await deleteDraft(books, id))) {
    const row = await findInvoice(books, id);
    if (!row) throw notFound(id);
    throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be deleted; void an open invoice instead.`);
  }
  return deletedObject(books, "invoice", id);
}
