import { and, asc, eq, lt, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { invoiceLineItems, invoices } from "@/db/schema";
import { newId } from "@/core/ids";
import { utcDay } from "@/core/time";
import { ApiError } from "../errors";
import type { InvoiceCreateInput, InvoiceDto, InvoiceListFilter, InvoiceUpdateInput } from "../schemas/invoices";
import { lockCustomers } from "./customers";
import { asInputs, priceLines, type PricedInvoice } from "./invoice-lines";
import { invoiceDate, invoiceRow, withLines, type InvoiceRow } from "./invoice-rows";
import { after, newestFirst, page, type Keyset } from "./pagination";
import { sent } from "./patch";
import { invalid, notFound } from "./refusals";

const KEYS: Keyset = { table: invoices, orgId: invoices.orgId, id: invoices.id, createdAt: invoices.createdAt };

function statusFilter(status: InvoiceListFilter["status"]) {
  if (status === undefined) return undefined;
  if (status === "overdue") return and(eq(invoices.status, "open"), lt(invoices.dueDate, utcDay(new Date())));
  return eq(invoices.status, status);
}

export async function listInvoices(orgId: string, query: InvoiceListFilter) {
  const rows = await getDb()
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.orgId, orgId),
        statusFilter(query.status),
        query.customer ? eq(invoices.customerId, query.customer) : undefined,
        query.from ? sql`${invoiceDate} >= ${query.from}` : undefined,
        query.to ? sql`${invoiceDate} <= ${query.to}` : undefined,
        await after(KEYS, orgId, query.starting_after),
      ),
    )
    .orderBy(...newestFirst(KEYS))
    .limit(query.limit + 1);
  const { data, ...envelope } = page(rows, query.limit);
  return { ...envelope, data: await withLines(getDb(), orgId, data) };
}

export async function getInvoice(orgId: string, id: string, db: DbOrTx = getDb()): Promise<InvoiceDto> {
  const row = await invoiceRow(db, orgId, id);
  if (!row) throw notFound(id);
  return (await withLines(db, orgId, [row]))[0]!;
}

function checkDates(issueDate: string | null | undefined, dueDate: string | null | undefined) {
  if (issueDate && dueDate && dueDate < issueDate) throw invalid("due_date", `The due date ${dueDate} is before the issue date ${issueDate}.`);
}

async function writeLines(tx: Tx, orgId: string, invoiceId: string, priced: PricedInvoice) {
  await tx.delete(invoiceLineItems).where(and(eq(invoiceLineItems.orgId, orgId), eq(invoiceLineItems.invoiceId, invoiceId)));
  await tx.insert(invoiceLineItems).values(priced.lines.map((line) => ({ ...line, orgId, invoiceId })));
}

export async function createInvoice(orgId: string, input: InvoiceCreateInput): Promise<InvoiceDto> {
  checkDates(input.issue_date, input.due_date);
  return getDb().transaction(async (tx) => {
    const [customer] = await lockCustomers(tx, orgId, [input.customer]);
    if (!customer) throw notFound(input.customer, "customer");
    const currency = input.currency ?? customer.currency;
    if (!currency) throw invalid("currency", `Customer ${customer.id} has no default currency: send the invoice's currency.`);
    const priced = await priceLines(tx, orgId, currency, input.lines);
    const id = newId("in");
    await tx.insert(invoices).values({
      orgId,
      id,
      customerId: customer.id,
      currency,
      notes: input.notes ?? null,
      issueDate: input.issue_date ?? null,
      dueDate: input.due_date ?? null,
      subtotal: priced.subtotal,
      tax: priced.tax,
      total: priced.total,
    });
    await writeLines(tx, orgId, id, priced);
    return getInvoice(orgId, id, tx);
  });
}

/**
 * Locks a draft for a change: first its customers (see lockCustomers), then the invoice row.
 * A concurrent update may have moved the draft to another customer between the two reads; then
 * the locks are taken again for the customer it has now.
 */
export async function lockDraft(tx: Tx, orgId: string, id: string, verb: string, newCustomer?: string) {
  for (;;) {
    const seen = await invoiceRow(tx, orgId, id);
    if (!seen) throw notFound(id);
    const locked = await lockCustomers(tx, orgId, newCustomer ? [seen.customerId, newCustomer] : [seen.customerId]);
    const [row] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id)))
      .for("update");
    if (!row) throw notFound(id);
    if (row.status !== "draft") throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be ${verb}.`);
    if (row.customerId === seen.customerId) return { invoice: row, customers: locked };
  }
}

async function linesOf(tx: Tx, orgId: string, invoiceId: string) {
  return tx
    .select()
    .from(invoiceLineItems)
    .where(and(eq(invoiceLineItems.orgId, orgId), eq(invoiceLineItems.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLineItems.position));
}

export async function updateInvoice(orgId: string, id: string, input: InvoiceUpdateInput): Promise<InvoiceDto> {
  return getDb().transaction(async (tx) => {
    const { invoice, customers } = await lockDraft(tx, orgId, id, "edited", input.customer);
    if (input.customer && !customers.some((customer) => customer.id === input.customer)) throw notFound(input.customer, "customer");
    const changes = sent({ customerId: input.customer, currency: input.currency, notes: input.notes, issueDate: input.issue_date, dueDate: input.due_date });
    const merged: InvoiceRow = { ...invoice, ...changes };
    checkDates(merged.issueDate, merged.dueDate);
    // New lines, or a new currency the products must be priced in: the amounts are computed again.
    const priced = input.lines || input.currency ? await priceLines(tx, orgId, merged.currency, input.lines ?? asInputs(await linesOf(tx, orgId, id))) : null;
    if (priced) await writeLines(tx, orgId, id, priced);
    await tx
      .update(invoices)
      .set({ ...changes, ...(priced && { subtotal: priced.subtotal, tax: priced.tax, total: priced.total }), updatedAt: new Date() })
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id)));
    return getInvoice(orgId, id, tx);
  });
}

export async function deleteInvoice(orgId: string, id: string): Promise<{ id: string; object: "invoice"; deleted: true }> {
  const [deleted] = await getDb()
    .delete(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id), eq(invoices.status, "draft")))
    .returning({ id: invoices.id });
  if (!deleted) {
    const row = await invoiceRow(getDb(), orgId, id);
    if (!row) throw notFound(id);
    throw ApiError.of("invoice_not_draft", `Invoice ${id} is ${row.status}: only drafts can be deleted; void an open invoice instead.`);
  }
  return { id, object: "invoice", deleted: true };
}
