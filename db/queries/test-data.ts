import "server-only";
import { count } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx, Tx } from "@/db";
import { customers, idempotencyKeys, invoiceCounters, invoices, products } from "@/db/schema";
import { inBooks } from "./books";

/** How much test data an organization holds (docs/features/test-mode.md#delete-all-test-data). */
export interface TestDataCounts {
  customers: number;
  products: number;
  invoices: number;
}

const testOf = (table: { orgId: AnyPgColumn; mode: AnyPgColumn }, orgId: string) => inBooks(table, { orgId, mode: "test" });

export async function countTestData(db: DbOrTx, orgId: string): Promise<TestDataCounts> {
  const counted = (table: typeof customers | typeof products | typeof invoices) =>
    db
      .select({ n: count() })
      .from(table)
      .where(testOf(table, orgId))
      .then(([row]) => row!.n);
  const [customerCount, productCount, invoiceCount] = await Promise.all([counted(customers), counted(products), counted(invoices)]);
  return { customers: customerCount, products: productCount, invoices: invoiceCount };
}

/**
 * Deletes the organization's test books in the caller's transaction: invoices first (their lines
 * go with them), then the products and customers they named, the test numbering and the test
 * idempotency keys. Keys and traffic are not books: they stay. Returns what was deleted.
 */
export async function deleteTestData(tx: Tx, orgId: string): Promise<TestDataCounts> {
  const deletedInvoices = await tx.delete(invoices).where(testOf(invoices, orgId)).returning({ id: invoices.id });
  const deletedProducts = await tx.delete(products).where(testOf(products, orgId)).returning({ id: products.id });
  const deletedCustomers = await tx.delete(customers).where(testOf(customers, orgId)).returning({ id: customers.id });
  await tx.delete(invoiceCounters).where(testOf(invoiceCounters, orgId));
  await tx.delete(idempotencyKeys).where(testOf(idempotencyKeys, orgId));
  return { customers: deletedCustomers.length, products: deletedProducts.length, invoices: deletedInvoices.length };
}
