import type { Db } from "@/db";
import { customers, invoiceCounters, invoiceLineItems, invoices, products } from "@/db/schema";
import { utcDay } from "@/core/time";
import { invoiceTotals, lineAmounts } from "@/lib/money";
import { DAY } from "./keys";

// Acme's test books (docs/features/test-mode.md): what its CI suite's test key made, so the test
// mode of the dashboard and the API has something to show. Fixed ids: a second run adds nothing.

const books = { orgId: "org_demo_acme", mode: "test" } as const;

const CUSTOMERS = [
  { id: "cus_demo_test_jane", name: "Test Customer Jane", email: "jane@example.test", currency: "EUR" },
  { id: "cus_demo_test_ci", name: "CI Run 4821", email: "ci-4821@example.test", currency: "USD" },
];

const PRODUCTS = [
  { id: "prod_demo_test_beans", name: "Test beans 1 kg", sku: "TEST-BEANS", unitAmount: 2_490, currency: "EUR", taxRatePpm: 70_000 },
  { id: "prod_demo_test_seat", name: "Test seat", sku: "TEST-SEAT", unitAmount: 1_500, currency: "USD", taxRatePpm: 0 },
];

/** Invoices by status, each of one product line; numbered ones are finalized, in this order. */
const INVOICES = [
  { id: "in_demo_test_1", customer: 0, product: 0, quantity: 2, status: "paid", daysAgo: 21 },
  { id: "in_demo_test_2", customer: 1, product: 1, quantity: 5, status: "paid", daysAgo: 14 },
  { id: "in_demo_test_3", customer: 0, product: 0, quantity: 1, status: "void", daysAgo: 9 },
  { id: "in_demo_test_4", customer: 1, product: 1, quantity: 3, status: "open", daysAgo: 3 },
  { id: "in_demo_test_5", customer: 0, product: 0, quantity: 4, status: "draft", daysAgo: 1 },
] as const;

export async function seedTestBooks(db: Db, now: Date): Promise<void> {
  await db
    .insert(customers)
    .values(CUSTOMERS.map((customer) => ({ ...books, ...customer, createdAt: new Date(now.getTime() - 30 * DAY) })))
    .onConflictDoNothing();
  await db
    .insert(products)
    .values(PRODUCTS.map((product) => ({ ...books, ...product, createdAt: new Date(now.getTime() - 30 * DAY) })))
    .onConflictDoNothing();
  let number = 0;
  for (const invoice of INVOICES) {
    const customer = CUSTOMERS[invoice.customer]!;
    const product = PRODUCTS[invoice.product]!;
    const line = { quantity: invoice.quantity, unitAmount: product.unitAmount, taxRatePpm: product.taxRatePpm };
    const amounts = lineAmounts(line);
    const totals = invoiceTotals([amounts]);
    const at = new Date(now.getTime() - invoice.daysAgo * DAY);
    const finalized = invoice.status !== "draft";
    if (finalized) number += 1;
    const added = await db
      .insert(invoices)
      .values({
        ...books,
        id: invoice.id,
        customerId: customer.id,
        number: finalized ? `INV-${String(number).padStart(6, "0")}` : null,
        status: invoice.status,
        currency: product.currency,
        customerDetails: finalized ? { name: customer.name, email: customer.email, phone: null, address: null, tax_id: null } : null,
        issueDate: finalized ? utcDay(at) : null,
        dueDate: finalized ? utcDay(new Date(at.getTime() + 30 * DAY)) : null,
        subtotal: Number(totals.subtotal),
        tax: Number(totals.tax),
        total: Number(totals.total),
        finalizedAt: finalized ? at : null,
        paidAt: invoice.status === "paid" ? new Date(at.getTime() + 2 * DAY) : null,
        voidedAt: invoice.status === "void" ? new Date(at.getTime() + DAY) : null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: invoices.id });
    if (added.length === 0) continue;
    await db.insert(invoiceLineItems).values({
      ...books,
      id: `li_${invoice.id.slice(3)}`,
      invoiceId: invoice.id,
      position: 0,
      productId: product.id,
      description: product.name,
      ...line,
      amount: Number(amounts.amount),
      tax: Number(amounts.tax),
    });
  }
  await db
    .insert(invoiceCounters)
    .values({ ...books, lastNumber: number })
    .onConflictDoNothing();
}
