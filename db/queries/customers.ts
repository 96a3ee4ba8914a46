import "server-only";
import { and, count, eq, ilike, inArray, isNull, or } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { customers, invoices } from "@/db/schema";
import type { Books } from "@/core/enums";
import { newId } from "@/core/ids";
import { inBooks } from "./books";
import { newestFirstRows, type PageRequest } from "./pagination";

export type CustomerRow = typeof customers.$inferSelect;
/** The columns a customer is created with; the id, the books, the times are the database's. */
export type NewCustomer = Omit<typeof customers.$inferInsert, "orgId" | "mode" | "id" | "createdAt" | "updatedAt" | "deletedAt">;

/** Deleted customers stay for the invoices that name them; everything but those invoices passes them by. */
const present = (books: Books, id: string) => and(inBooks(customers, books), eq(customers.id, id), isNull(customers.deletedAt));

/** `%`, `_` and `\` match themselves in a search. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of the books' customers that are not deleted, newest first, those whose name or email
 * contains `search` when there is one; null when the cursor names none of the books' customers.
 */
export function customersPage(books: Books, filter: { search?: string }, request: PageRequest): Promise<CustomerRow[] | null> {
  const { search } = filter;
  return newestFirstRows(customers, books, request, [
    isNull(customers.deletedAt),
    search ? or(ilike(customers.name, containing(search)), ilike(customers.email, containing(search))) : undefined,
  ]);
}

export async function insertCustomer(books: Books, values: NewCustomer): Promise<CustomerRow> {
  const [row] = await getDb()
    .insert(customers)
    .values({ ...books, id: newId("cus"), ...values })
    .returning();
  return row!;
}

export async function findCustomer(books: Books, id: string): Promise<CustomerRow | undefined> {
  const [row] = await getDb().select().from(customers).where(present(books, id));
  return row;
}

/** Writes the changed columns and the update time; undefined when the books have no such customer, or it is deleted. */
export async function updateCustomerColumns(books: Books, id: string, changes: Partial<NewCustomer>): Promise<CustomerRow | undefined> {
  const [row] = await getDb()
    .update(customers)
    .set({ ...changes, updatedAt: new Date() })
    .where(present(books, id))
    .returning();
  return row;
}

/** The books' customers among `ids`, deleted ones included; no ids, no query. */
export async function customersByIds(books: Books, ids: string[], db: DbOrTx = getDb()): Promise<CustomerRow[]> {
  return ids.length
    ? db
        .select()
        .from(customers)
        .where(and(inBooks(customers, books), inArray(customers.id, ids)))
    : [];
}

/**
 * Locks customers that are not deleted against deletion until the transaction ends (FOR SHARE),
 * in id order. Every transaction that writes a customer's drafts or finalizes them takes this
 * lock before any invoice row lock, the order deleteCustomerRow follows too, so the two never
 * deadlock.
 */
export async function lockCustomers(tx: Tx, books: Books, ids: string[]): Promise<CustomerRow[]> {
  return tx
    .select()
    .from(customers)
    .where(and(inBooks(customers, books), inArray(customers.id, ids), isNull(customers.deletedAt)))
    .orderBy(customers.id)
    .for("share");
}

/**
 * Soft delete, in one transaction with the customer's row locked: the customer is marked deleted
 * and its drafts are deleted with it, unless an invoice of the customer is open; then nothing
 * changes. Null when the books have no such customer (or it is deleted already), else the open
 * invoices counted.
 */
export async function deleteCustomerRow(books: Books, id: string): Promise<{ openInvoices: number } | null> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select({ id: customers.id }).from(customers).where(present(books, id)).for("update");
    if (!row) return null;
    const of = and(inBooks(invoices, books), eq(invoices.customerId, id));
    const [open] = await tx
      .select({ n: count() })
      .from(invoices)
      .where(and(of, eq(invoices.status, "open")));
    if (open!.n > 0) return { openInvoices: open!.n };
    await tx.delete(invoices).where(and(of, eq(invoices.status, "draft")));
    await tx.update(customers).set({ deletedAt: new Date(), updatedAt: new Date() }).where(present(books, id));
    return { openInvoices: 0 };
  });
}
