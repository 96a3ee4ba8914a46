import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db";
import { invoiceCounters, invoiceLineItems, invoices, products, type InvoiceStatus } from "@/db/schema";
import { utcDay, utcDayStart } from "@/core/time";
import { ApiError } from "../errors";
import type { InvoiceDto } from "../schemas/invoices";
import { detailsOf, invoiceRow } from "./invoice-rows";
import { getInvoice, lockDraft } from "./invoices";
import { invalid, notFound } from "./refusals";

const PAYMENT_TERMS_DAYS = 30;

function addDays(day: string, days: number): string {
  const date = utcDayStart(day);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

/** Units of each stocked product the invoice sells, read under the product locks. */
async function unitsByProduct(tx: Tx, orgId: string, invoiceId: string) {
  return tx
    .select({ productId: products.id, name: products.name, stock: products.stockQuantity, units: sql<number>`sum(${invoiceLineItems.quantity})::int` })
    .from(invoiceLineItems)
    .innerJoin(products, and(eq(products.orgId, invoiceLineItems.orgId), eq(products.id, invoiceLineItems.productId)))
    .where(and(eq(invoiceLineItems.orgId, orgId), eq(invoiceLineItems.invoiceId, invoiceId), sql`${products.stockQuantity} is not null`))
    .groupBy(products.id, products.name, products.stockQuantity)
    .orderBy(asc(products.id));
}

/** Locks the stocked products the invoice sells, in id order, so concurrent finalizations queue up instead of deadlocking. */
async function lockProducts(tx: Tx, orgId: string, invoiceId: string) {
  const sold = tx
    .select({ id: invoiceLineItems.productId })
    .from(invoiceLineItems)
    .where(and(eq(invoiceLineItems.orgId, orgId), eq(invoiceLineItems.invoiceId, invoiceId)));
  await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.orgId, orgId), inArray(products.id, sold), sql`${products.stockQuantity} is not null`))
    .orderBy(asc(products.id))
    .for("update");
}

/** Adds `sign × units` to each stocked product the invoice sells; refuses to go below zero. */
async function moveStock(tx: Tx, orgId: string, invoiceId: string, sign: 1 | -1) {
  await lockProducts(tx, orgId, invoiceId);
  for (const { productId, name, stock, units } of await unitsByProduct(tx, orgId, invoiceId)) {
    if (sign < 0 && stock! < units) {
      throw ApiError.of("insufficient_stock", `Not enough stock of ${name} (${productId}): ${stock} in stock, ${units} on invoice ${invoiceId}.`);
    }
    await tx
      .update(products)
      .set({ stockQuantity: sql`${products.stockQuantity} + ${sign * units}`, updatedAt: new Date() })
      .where(and(eq(products.orgId, orgId), eq(products.id, productId)));
  }
}

/** The organization's next invoice number. The counter row stays locked until commit and rolls back with the transaction, so numbers have no gaps and no duplicates. */
async function nextNumber(tx: Tx, orgId: string): Promise<string> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ orgId, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.orgId, set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return `INV-${String(row!.lastNumber).padStart(6, "0")}`;
}

/** draft → open: dates settled, customer details frozen, stock taken, number given; all or nothing. */
export async function finalizeInvoice(orgId: string, id: string): Promise<InvoiceDto> {
  return getDb().transaction(async (tx) => {
    const { invoice, customers } = await lockDraft(tx, orgId, id, "finalized");
    const issueDate = invoice.issueDate ?? utcDay(new Date());
    const dueDate = invoice.dueDate ?? addDays(issueDate, PAYMENT_TERMS_DAYS);
    if (dueDate < issueDate) {
      throw invalid("due_date", `The due date ${dueDate} is before ${issueDate}, the issue date the invoice would get: update the draft's dates first.`);
    }
    await moveStock(tx, orgId, id, -1);
    const now = new Date();
    await tx
      .update(invoices)
      .set({
        status: "open",
        number: await nextNumber(tx, orgId),
        issueDate,
        dueDate,
        customerDetails: detailsOf(customers[0]!),
        finalizedAt: now,
        updatedAt: now,
      })
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id)));
    return getInvoice(orgId, id, tx);
  });
}

/** open → paid or void in one conditional update, so two concurrent transitions cannot both win. */
async function closeOpen(tx: Tx, orgId: string, id: string, to: Extract<InvoiceStatus, "paid" | "void">, verb: string) {
  const now = new Date();
  const [row] = await tx
    .update(invoices)
    .set(to === "paid" ? { status: to, paidAt: now, updatedAt: now } : { status: to, voidedAt: now, updatedAt: now })
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id), eq(invoices.status, "open")))
    .returning({ id: invoices.id });
  if (row) return;
  const current = await invoiceRow(tx, orgId, id);
  if (!current) throw notFound(id);
  throw ApiError.of("invoice_not_open", `Invoice ${id} is ${current.status}: only open invoices can be ${verb}.`);
}

export async function payInvoice(orgId: string, id: string): Promise<InvoiceDto> {
  return getDb().transaction(async (tx) => {
    await closeOpen(tx, orgId, id, "paid", "marked paid");
    return getInvoice(orgId, id, tx);
  });
}

/** open → void: the units it sold go back into stock. */
export async function voidInvoice(orgId: string, id: string): Promise<InvoiceDto> {
  return getDb().transaction(async (tx) => {
    await closeOpen(tx, orgId, id, "void", "voided");
    await moveStock(tx, orgId, id, 1);
    return getInvoice(orgId, id, tx);
  });
}
