import "server-only";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { invoiceCounters, invoiceLineItems, invoices, organizations, type InvoiceStatus } from "@/db/schema";
import type { Books } from "@/core/enums";
import { newId } from "@/core/ids";
import { utcDay } from "@/core/time";
import { inBooks } from "./books";
import { newestFirstRows, type PageRequest } from "./pagination";

export type { CustomerDetails, InvoiceStatus } from "@/db/schema";
export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLineItems.$inferSelect;
/** A line as it is written: the books and the invoice are the invoice's. */
export type NewInvoiceLine = Omit<InvoiceLineRow, "orgId" | "mode" | "invoiceId">;
/** An invoice's columns but its keys and creation time, which the database gives. */
export type InvoiceColumns = Omit<typeof invoices.$inferInsert, "orgId" | "mode" | "id" | "createdAt">;

/** The day an invoice is dated: its issue date, or for a draft without one the day it was created (UTC). */
export const invoiceDate = sql`coalesce(${invoices.issueDate}, (${invoices.createdAt} at time zone 'UTC')::date)`;

/** Which invoices a list shows; `from` and `to` bound the invoice's date (invoiceDate), both included. */
export interface InvoiceFilter {
  /** overdue: open and due before today (UTC). */
  status?: InvoiceStatus | "overdue";
  customerId?: string;
  from?: string;
  to?: string;
}

function statusFilter(status: InvoiceFilter["status"]) {
  if (status === undefined) return undefined;
  if (status === "overdue") return and(eq(invoices.status, "open"), lt(invoices.dueDate, utcDay(new Date())));
  return eq(invoices.status, status);
}

const one = (books: Books, id: string) => and(inBooks(invoices, books), eq(invoices.id, id));

/** A page of the books' invoices, newest first; null when the cursor names none of them. */
export function invoicesPage(books: Books, filter: InvoiceFilter, request: PageRequest): Promise<InvoiceRow[] | null> {
  return newestFirstRows(invoices, books, request, [
    statusFilter(filter.status),
    filter.customerId ? eq(invoices.customerId, filter.customerId) : undefined,
    filter.from ? sql`${invoiceDate} >= ${filter.from}` : undefined,
    filter.to ? sql`${invoiceDate} <= ${filter.to}` : undefined,
  ]);
}

export async function findInvoice(books: Books, id: string, db: DbOrTx = getDb()): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(one(books, id));
  return row;
}

/** The invoice's row, locked for update until the transaction ends. */
export async function lockInvoice(tx: Tx, books: Books, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await tx.select().from(invoices).where(one(books, id)).for("update");
  return row;
}

/** The lines of the books' invoices among `invoiceIds`, by invoice, each invoice's in order. */
export async function linesOfInvoices(books: Books, invoiceIds: string[], db: DbOrTx = getDb()): Promise<InvoiceLineRow[]> {
  return db
    .select()
    .from(invoiceLineItems)
    .where(and(inBooks(invoiceLineItems, books), inArray(invoiceLineItems.invoiceId, invoiceIds)))
    .orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position));
}

/** Inserts an invoice (its lines apart: replaceLines) and returns its new id. */
export async function insertInvoice(tx: Tx, books: Books, values: InvoiceColumns): Promise<string> {
  const id = newId("in");
  await tx.insert(invoices).values({ ...books, id, ...values });
  return id;
}

/** The invoice's lines become `lines`. */
export async function replaceLines(tx: Tx, books: Books, invoiceId: string, lines: NewInvoiceLine[]): Promise<void> {
  await tx.delete(invoiceLineItems).where(and(inBooks(invoiceLineItems, books), eq(invoiceLineItems.invoiceId, invoiceId)));
  await tx.insert(invoiceLineItems).values(lines.map((line) => ({ ...line, ...books, invoiceId })));
}

/** Writes the given columns, the update time among them: the caller says which time. */
export async function updateInvoiceColumns(tx: Tx, books: Books, id: string, changes: Partial<InvoiceColumns>): Promise<void> {
  await tx.update(invoices).set(changes).where(one(books, id));
}

/**
 * The books' next invoice sequence number: live and test invoices are numbered apart, so a test
 * never spends a real number. The counter row stays locked until commit and rolls back with the
 * transaction, so numbers have no gaps and no duplicates.
 */
export async function takeInvoiceNumber(tx: Tx, books: Books): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ ...books, lastNumber: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.orgId, invoiceCounters.mode], set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return row!.lastNumber;
}

/** open → paid or void in one conditional update, so two concurrent transitions cannot both win; false when the invoice was not open. */
export async function closeOpenInvoice(tx: Tx, books: Books, id: string, to: Extract<InvoiceStatus, "paid" | "void">): Promise<boolean> {
  const now = new Date();
  const [row] = await tx
    .update(invoices)
    .set(to === "paid" ? { status: to, paidAt: now, updatedAt: now } : { status: to, voidedAt: now, updatedAt: now })
    .where(and(one(books, id), eq(invoices.status, "open")))
    .returning({ id: invoices.id });
  return Boolean(row);
}

/** Deletes the invoice if it is a draft (its lines go with it); false when it is not, or does not exist. */
export async function deleteDraft(books: Books, id: string): Promise<boolean> {
  const [deleted] = await getDb()
    .delete(invoices)
    .where(and(one(books, id), eq(invoices.status, "draft")))
    .returning({ id: invoices.id });
  return Boolean(deleted);
}

/**
 * Runs `work` in one transaction: an invoice's writes are priced and checked between their
 * statements, and whatever `work` throws rolls all of them back.
 */
export function invoiceTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return getDb().transaction(work);
}

/** The organization as its invoices name their issuer. */
export async function findIssuer(orgId: string): Promise<{ name: string } | undefined> {
  const [org] = await getDb().select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  return org;
}
