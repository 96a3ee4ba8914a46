import type { DbOrTx, Tx } from "@/db";
import { lockLiveCustomers } from "@/db/queries/customers";
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
import { invalid, notFound } from "./refusals";

export async function listInvoices(orgId: string, query: InvoiceListFilter) {
  const filter = { status: query.status, customerId: query.customer, from: query.from, to: query.to };
  const rows = await readPage(query, (request) => invoicesPage(orgId, filter, request));
  const { data, ...envelope } = page(rows, query.limit);
  return { ...envelope, data: await withLines(orgId, data) };
}

export async function getInvoice(orgId: string, id: string, db?: DbOrTx): Promise<InvoiceDto> {
  const row = await findInvoice(orgId, id, db);
  if (!row) throw notFound(id);
  return (await withLines(orgId, [row], db))[0]!;
}

function checkDates(issueDate: string | null | undefined, dueDate: string | null | undefined) {
  if (issueDate && dueDate && dueDate < issueDate) throw invalid("due_date", `The due date ${dueDate} is before the issue date ${issueDate}.`);
}

export async function createInvoice(orgId: string, input: InvoiceCreateInput): Promise<InvoiceDto> {
  checkDates(input.issue_date, input.due_date);
  return invoiceTransaction(async (tx) => {
    const [customer] = await lockLiveCustomers(tx, orgId, [input.customer]);
    if (!customer) throw notFound(input.customer, "customer");
    const currency = input.currency ?? customer.currency;
    if (!currency) throw invalid("currency", `Customer ${customer.id} has no default currency: send the invoice's currency.`);
    const priced = await priceLines(tx, orgId, currency, input.lines);
    const id = await insertInvoice(tx, orgId, {
      customerId: customer.id,
      currency,
      notes: input.notes ?? null,
      issueDate: input.issue_date ?? null,
      dueDate: input.due_date ?? null,
      subtotal: priced.subtotal,
      tax: priced.tax,
      total: priced.total,
    });
    await replaceLines(tx, orgId, id, priced.lines);
    return getInvoice(orgId, id, tx);
  });
}

/**
 * Locks a draft for a change: first its customers (see lockLiveCustomers), then the invoice row.
 * A concurrent update may have moved the draft to another customer between the two reads; then
 * the locks are taken again for the customer it has now.
 */
export async function lockDraft(tx: Tx, orgId: string, id: string, verb: string, newCustomer?: string) {
  for (;;) {
    const seen = await findInvoice(orgId, id, tx);
    if (!seen) throw notFound(id);
    const locked = await lockLiveCustomers(tx, orgId, newCustomer ? [seen.customerId, newCustomer] : [seen.customerId]);
    const row = await lockInvoice(tx, orgId, id);
    if (!row) throw notFound(id);
    if (row.status !== "draft") throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be ${verb}.`);
    if (row.customerId === seen.customerId) return { invoice: row, customers: locked };
  }
}

export async function updateInvoice(orgId: string, id: string, input: InvoiceUpdateInput): Promise<InvoiceDto> {
  return invoiceTransaction(async (tx) => {
    const { invoice, customers } = await lockDraft(tx, orgId, id, "edited", input.customer);
    if (input.customer && !customers.some((customer) => customer.id === input.customer)) throw notFound(input.customer, "customer");
    const changes = sent({ customerId: input.customer, currency: input.currency, notes: input.notes, issueDate: input.issue_date, dueDate: input.due_date });
    const merged: InvoiceRow = { ...invoice, ...changes };
    checkDates(merged.issueDate, merged.dueDate);
    // New lines, or a new currency the products must be priced in: the amounts are computed again.
    const priced =
      input.lines || input.currency ? await priceLines(tx, orgId, merged.currency, input.lines ?? asInputs(await linesOfInvoices(orgId, [id], tx))) : null;
    if (priced) await replaceLines(tx, orgId, id, priced.lines);
    await updateInvoiceColumns(tx, orgId, id, {
      ...changes,
      ...(priced && { subtotal: priced.subtotal, tax: priced.tax, total: priced.total }),
      updatedAt: new Date(),
    });
    return getInvoice(orgId, id, tx);
  });
}

export async function deleteInvoice(orgId: string, id: string): Promise<{ id: string; object: "invoice"; deleted: true }> {
  if (!(await deleteDraft(orgId, id))) {
    const row = await findInvoice(orgId, id);
    if (!row) throw notFound(id);
    throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be deleted; void an open invoice instead.`);
  }
  return { id, object: "invoice", deleted: true };
}
