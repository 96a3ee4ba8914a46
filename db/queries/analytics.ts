import "server-only";
import { and, asc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { customers, invoices } from "@/db/schema";
import { utcDay, utcDayStart } from "@/core/time";
import type { Books } from "@/core/enums";
import { inBooks } from "./books";
import { invoiceDate } from "./invoices";

const amount = sql<string>`sum(${invoices.total})`.mapWith(Number);
const invoiceCount = sql<number>`count(*)::int`;

function perCurrency(where: SQL | undefined) {
  return getDb()
    .select({ currency: invoices.currency, amount, invoiceCount })
    .from(invoices)
    .where(where)
    .groupBy(invoices.currency)
    .orderBy(asc(invoices.currency));
}

/** The `limit` customers with the most revenue within each currency, ranked. */
function topCustomers(paid: SQL | undefined, limit: number) {
  const ranked = getDb()
    .select({
      customer: invoices.customerId,
      name: customers.name,
      currency: invoices.currency,
      amount: sql<string>`sum(${invoices.total})`.as("amount"),
      invoiceCount: sql<number>`count(*)::int`.as("invoice_count"),
      rank: sql<number>`row_number() over (partition by ${invoices.currency} order by sum(${invoices.total}) desc, ${invoices.customerId})`.as("rank"),
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.orgId, invoices.orgId), eq(customers.mode, invoices.mode), eq(customers.id, invoices.customerId)))
    .where(paid)
    .groupBy(invoices.customerId, customers.name, invoices.currency)
    .as("ranked");
  return getDb()
    .select({ customer: ranked.customer, name: ranked.name, currency: ranked.currency, amount: ranked.amount, invoiceCount: ranked.invoiceCount })
    .from(ranked)
    .where(lte(ranked.rank, limit))
    .orderBy(ranked.currency, ranked.rank);
}

/**
 * The books' invoice figures for the days `from` to `to` (UTC, both included), every
 * amount in its own currency: paid invoices by payment day, open and overdue ones (due before
 * today) by invoice date, the counts by status of invoices dated in the range, paid amounts by
 * month (YYYY-MM), and the `topPerCurrency` customers who paid most in each currency.
 */
export async function invoiceFigures(books: Books, range: { from: string; to: string }, topPerCurrency: number) {
  const today = utcDay(new Date());
  const org = inBooks(invoices, books);
  const paidInRange = and(
    org,
    eq(invoices.status, "paid"),
    gte(invoices.paidAt, utcDayStart(range.from)),
    lt(invoices.paidAt, new Date(utcDayStart(range.to).getTime() + 86_400_000)),
  );
  const datedInRange = and(org, sql`${invoiceDate} between ${range.from} and ${range.to}`);
  const openInRange = and(datedInRange, eq(invoices.status, "open"));
  const overdueInRange = and(openInRange, lt(invoices.dueDate, today));
  const month = sql<string>`to_char(${invoices.paidAt} at time zone 'UTC', 'YYYY-MM')`;

  const [revenue, outstanding, overdue, counts, byMonth, top] = await Promise.all([
    perCurrency(paidInRange),
    perCurrency(openInRange),
    perCurrency(overdueInRange),
    getDb()
      .select({ status: invoices.status, n: invoiceCount, overdue: sql<number>`(count(*) filter (where ${invoices.dueDate} < ${today}))::int` })
      .from(invoices)
      .where(datedInRange)
      .groupBy(invoices.status),
    getDb()
      .select({ month, currency: invoices.currency, amount, invoiceCount })
      .from(invoices)
      .where(paidInRange)
      .groupBy(month, invoices.currency)
      .orderBy(month, invoices.currency),
    topCustomers(paidInRange, topPerCurrency),
  ]);
  return { revenue, outstanding, overdue, counts, byMonth, top };
}
