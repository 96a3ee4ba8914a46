import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { invoiceLineItems, products } from "@/db/schema";
import { newId } from "@/core/ids";
import { newestFirstRows, type PageRequest } from "./pagination";

export type ProductRow = typeof products.$inferSelect;
/** The columns a product is created with; the id, the organization and the times are the database's. */
export type NewProduct = Omit<typeof products.$inferInsert, "orgId" | "id" | "createdAt" | "updatedAt">;

const one = (orgId: string, id: string) => and(eq(products.orgId, orgId), eq(products.id, id));

/** A page of the organization's products, newest first; null when the cursor names none of them. */
export function productsPage(orgId: string, filter: { active?: boolean }, request: PageRequest): Promise<ProductRow[] | null> {
  return newestFirstRows(products, orgId, request, [filter.active === undefined ? undefined : eq(products.active, filter.active)]);
}

export async function insertProduct(orgId: string, values: NewProduct): Promise<ProductRow> {
  const [row] = await getDb()
    .insert(products)
    .values({ orgId, id: newId("prod"), ...values })
    .returning();
  return row!;
}

export async function findProduct(orgId: string, id: string): Promise<ProductRow | undefined> {
  const [row] = await getDb().select().from(products).where(one(orgId, id));
  return row;
}

/** Writes the changed columns and the update time; undefined when the organization has no such product. */
export async function updateProductColumns(orgId: string, id: string, changes: Partial<NewProduct>): Promise<ProductRow | undefined> {
  const [row] = await getDb()
    .update(products)
    .set({ ...changes, updatedAt: new Date() })
    .where(one(orgId, id))
    .returning();
  return row;
}

/** The organization's products among `ids`, in no particular order; no ids, no query. */
export async function productsByIds(orgId: string, ids: string[], db: DbOrTx = getDb()): Promise<ProductRow[]> {
  return ids.length
    ? db
        .select()
        .from(products)
        .where(and(eq(products.orgId, orgId), inArray(products.id, ids)))
    : [];
}

/** Locks the stocked products the invoice sells, in id order, so concurrent finalizations queue up instead of deadlocking. */
export async function lockStockedProducts(tx: Tx, orgId: string, invoiceId: string): Promise<void> {
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

/** Units of each stocked product the invoice sells, in product id order; read them under lockStockedProducts. */
export async function stockedUnitsOnInvoice(tx: Tx, orgId: string, invoiceId: string) {
  return tx
    .select({ productId: products.id, name: products.name, stock: products.stockQuantity, units: sql<number>`sum(${invoiceLineItems.quantity})::int` })
    .from(invoiceLineItems)
    .innerJoin(products, and(eq(products.orgId, invoiceLineItems.orgId), eq(products.id, invoiceLineItems.productId)))
    .where(and(eq(invoiceLineItems.orgId, orgId), eq(invoiceLineItems.invoiceId, invoiceId), sql`${products.stockQuantity} is not null`))
    .groupBy(products.id, products.name, products.stockQuantity)
    .orderBy(asc(products.id));
}

/** Adds `units` (negative: takes them) to the product's stock. */
export async function addStock(tx: Tx, orgId: string, productId: string, units: number): Promise<void> {
  await tx
    .update(products)
    .set({ stockQuantity: sql`${products.stockQuantity} + ${units}`, updatedAt: new Date() })
    .where(one(orgId, productId));
}
