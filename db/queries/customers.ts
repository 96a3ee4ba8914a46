import "server-only";
import { and, count, eq, ilike, inArray, isNull, or } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { customers, invoices } from "@/db/schema";
import { newId } from "@/core/ids";
import { newestFirstRows, type PageRequest } from "./pagination";

export type CustomerRow = typeof customers.$inferSelect;
/** The columns a customer is created with; the id, the organization, the times are the database's. */
export type NewCustomer = Omit<typeof customers.$inferInsert, "orgId" | "id" | "createdAt" | "updatedAt" | "deletedAt">;

/** Deleted customers stay for the invoices that name them; everything but those invoices passes them by. */
const live = (orgId: string, id: string) => and(eq(customers.orgId, orgId), eq(customers.id, id), isNull(customers.deletedAt));

/** `%`, `_` and `\` match themselves in a search. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of the organization's live customers, newest first, those whose name or email contains
 * `search` when there is one; null when the cursor names none of the organization's customers.
 */
export function customersPage(orgId: string, filter: { search?: string }, request: PageRequest): Promise<CustomerRow[] | null> {
  const { search } = filter;
  return newestFirstRows(customers, orgId, request, [
    isNull(customers.deletedAt),
    search ? or(ilike(customers.name, containing(search)), ilike(customers.email, containing(search))) : undefined,
  ]);
}

export async function insertCustomer(orgId: string, values: NewCustomer): Promise<CustomerRow> {
  const [row] = await getDb()
    .insert(customers)
    .values({ orgId, id: newId("cus"), ...values })
    .returning();
  return row!;
}

export async function findLiveCustomer(orgId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = await getDb().select().from(customers).where(live(orgId, id));
  return row;
}

/** Writes the changed columns and the update time; undefined when the organization has no such live customer. */
export async function updateLiveCustomer(orgId: string, id: string, changes: Partial<NewCustomer>): Promise<CustomerRow | undefined> {
  const [row] = await getDb()
    .update(customers)
    .set({ ...changes, updatedAt: new Date() })
    .where(live(orgId, id))
    .returning();
  return row;
}

/** The organization's customers among `ids`, deleted ones included; no ids, no query. */
export async function customersByIds(orgId: string, ids: string[], db: DbOrTx = getDb()): Promise<CustomerRow[]> {
  return ids.length
    ? db
        .select()
        .from(customers)
        .where(and(eq(customers.orgId, orgId), inArray(customers.id, ids)))
    : [];
}

/**
 * Locks live customers against deletion until the transaction ends (FOR SHARE), in id order.
 * Every transaction that writes a customer's drafts or finalizes them takes this lock before any
 * invoice row lock, the order deleteLiveCustomer follows too, so the two never deadlock.
 */
export async function lockLiveCustomers(tx: Tx, orgId: string, ids: string[]): Promise<CustomerRow[]> {
  return tx
    .select()
    .from(customers)
    .where(and(eq(customers.orgId, orgId), inArray(customers.id, ids), isNull(customers.deletedAt)))
    .orderBy(customers.id)
    .for("share");
}

/**
 * Soft delete, in one transaction with the customer's row locked: the customer is marked deleted
 * and its drafts are deleted with it, unless an invoice of the customer is open; then nothing
 * changes. Null when the organization has no such live customer, else the open invoices counted.
 */
export async function deleteLiveCustomer(orgId: string, id: string): Promise<{ openInvoices: number } | null> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select({ id: customers.id }).from(customers).where(live(orgId, id)).for("update");
    if (!row) return null;
    const of = and(eq(invoices.orgId, orgId), eq(invoices.customerId, id));
    const [open] = await tx
      .select({ n: count() })
      .from(invoices)
      .where(and(of, eq(invoices.status, "open")));
    if (open!.n > 0) return { openInvoices: open!.n };
    await tx.delete(invoices).where(and(of, eq(invoices.status, "draft")));
    await tx.update(customers).set({ deletedAt: new Date(), updatedAt: new Date() }).where(live(orgId, id));
    return { openInvoices: 0 };
  });
}
