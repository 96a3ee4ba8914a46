import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { invoiceLineItems, products } from "@/db/schema";
import type { Books } from "@/core/enums";
import { newId } from "@/core/ids";
import { inBooks } from "./books";
import { newestFirstRows, type PageRequest } from "./pagination";

export type ProductRow = typeof products.$inferSelect;
/** The columns a product is created with; the id, the books and the times are the database's. */
export type NewProduct = Omit<typeof products.$inferInsert, "orgId" | "mode" | "id" | "createdAt" | "updatedAt">;

const one = (books: Books, id: string) => and(inBooks(products, books), eq(products.id, id));
const linesOf = (books: Books, invoiceId: string) => and(inBooks(invoiceLineItems, books), eq(invoiceLineItems.invoiceId, invoiceId));

/** A page of the books' products, newest first; null when the cursor names none of them. */
export function productsPage(books: Books, filter: { active?: boolean }, request: PageRequest): Promise<ProductRow[] | null> {
  return newestFirstRows(products, books, request, [filter.active === undefined ? undefined : eq(products.active, filter.active)]);
}

export async function insertProduct(books: Books, values: NewProduct): Promise<ProductRow> {
  const [row] = await getDb()
    .insert(products)
    .values({ ...books, id: newId("prod"), ...values })
    .returning();
  return row!;
}

export async function findProduct(books: Books, id: string): Promise<ProductRow | undefined> {
  const [row] = await getDb().select().from(products).where(one(books, id));
  return row;
}

/** Writes the changed columns and the update time; undefined when the books have no such product. */
export async function updateProductColumns(books: Books, id: string, changes: Partial<NewProduct>): Promise<ProductRow | undefined> {
  const [row] = await getDb()
    .update(products)
    .set({ ...changes, updatedAt: new Date() })
    .where(one(books, id))
    .returning();
  return row;
}

/** The books' products among `ids`, in no particular order; no ids, no query. */
export async function productsByIds(books: Books, ids: string[], db: DbOrTx = getDb()): Promise<ProductRow[]> {
  return ids.length
    ? db
        .select()
        .from(products)
        .where(and(inBooks(products, books), inArray(products.id, ids)))
    : [];
}

/** Locks the stocked products the invoice sells, in id order, so concurrent finalizations queue up instead of deadlocking. */
export async function lockStockedProducts(tx: Tx, books: Books, invoiceId: string): Promise<void> {
  const sold = tx.select({ id: invoiceLineItems.productId }).from(invoiceLineItems).where(linesOf(books, invoiceId));
  await tx
    .select({ id: products.id })
    .from(products)
    .where(and(inBooks(products, books), inArray(products.id, sold), sql`${products.stockQuantity} is not null`))
    .orderBy(asc(products.id))
    .for("update");
}

/** Units of each stocked product the invoice sells, in product id order; read them under lockStockedProducts. */
export async function stockedUnitsOnInvoice(tx: Tx, books: Books, invoiceId: string) {
  return tx
    .select({ productId: products.id, name: products.name, stock: products.stockQuantity, units: sql<number>`sum(${invoiceLineItems.quantity})::int` })
    .from(invoiceLineItems)
    .innerJoin(products, and(eq(products.orgId, invoiceLineItems.orgId), eq(products.mode, invoiceLineItems.mode), eq(products.id, invoiceLineItems.productId)))
    .where(and(linesOf(books, invoiceId), sql`${products.stockQuantity} is not null`))
    .groupBy(products.id, products.name, products.stockQuantity)
    .orderBy(asc(products.id));
}

/** Adds `units` (negative: takes them) to the product's stock. */
export async function addStock(tx: Tx, books: Books, productId: string, units: number): Promise<void> {
  await tx
    .update(products)
    .set({ stockQuantity: sql`${products.stockQuantity} + ${units}`, updatedAt: new Date() })
    .where(one(books, productId));
}
