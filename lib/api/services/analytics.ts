import { and, asc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { customers, invoices } from "@/db/schema";
import { dateRangeProblem } from "@/lib/input-rules";
import { utcDay, utcDayStart } from "@/core/time";
import { TOP_CUSTOMERS_PER_CURRENCY, type AnalyticsDto } from "../schemas/analytics";
import { invoiceDate } from "./invoice-rows";
import { invalid } from "./refusals";

/** Without a range: the last twelve months, this one included. A range ending today is bounded too. */
export function resolveRange(query: { from?: string; to?: string }) {
  const to = query.to ?? utcDay(new Date());
  const end = utcDayStart(to);
  const from = query.from ?? utcDay(new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1)));
  const problem = dateRangeProblem(from, to);
  if (problem) throw invalid(query.to ? "query.to" : "query.from", problem);
  return { from, to };
}

function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = utcDayStart(`${from.slice(0, 7)}-01`); utcDay(month) <= to; month.setUTCMonth(month.getUTCMonth() + 1)) {
    months.push(utcDay(month).slice(0, 7));
  }
  return months;
}

const amount = sql<string>`sum(${invoices.total})`.mapWith(Number);
const invoiceCount = sql<number>`count(*)::int`;

function perCurrency(where: SQL | undefined) {
  return getDb()
    .select({ currency: invoices.currency, amount, invoice_count: invoiceCount })
    .from(invoices)
    .where(where)
    .groupBy(invoices.currency)
    .orderBy(asc(invoices.currency));
}

/** Customers with the most revenue, ranked within each currency. */
function topCustomers(paid: SQL | undefined) {
  const ranked = getDb()
    .select({
      customer: invoices.customerId,
      name: customers.name,
      currency: invoices.currency,
      amount: sql<string>`sum(${invoices.total})`.as("amount"),
      invoice_count: sql<number>`count(*)::int`.as("invoice_count"),
      rank: sql<number>`row_number() over (partition by ${invoices.currency} order by sum(${invoices.total}) desc, ${invoices.customerId})`.as("rank"),
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.orgId, invoices.orgId), eq(customers.id, invoices.customerId)))
    .where(paid)
    .groupBy(invoices.customerId, customers.name, invoices.currency)
    .as("ranked");
  return getDb()
    .select({ customer: ranked.customer, name: ranked.name, currency: ranked.currency, amount: ranked.amount, invoice_count: ranked.invoice_count })
    .from(ranked)
    .where(lte(ranked.rank, TOP_CUSTOMERS_PER_CURRENCY))
    .orderBy(ranked.currency, ranked.rank);
}

/** Business metrics of one organization; every amount stays in its own currency. */
export async function analytics(orgId: string, range: { from: string; to: string }): Promise<AnalyticsDto> {
  const today = utcDay(new Date());
  const org = eq(invoices.orgId, orgId);
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
      .select({ month, currency: invoices.currency, amount, invoice_count: invoiceCount })
      .from(invoices)
      .where(paidInRange)
      .groupBy(month, invoices.currency)
      .orderBy(month, invoices.currency),
    topCustomers(paidInRange),
  ]);

  const count = (status: string) => counts.find((row) => row.status === status)?.n ?? 0;
  return {
    object: "analytics",
    from: range.from,
    to: range.to,
    revenue,
    outstanding,
    overdue,
    invoice_counts: { draft: count("draft"), open: count("open"), paid: count("paid"), void: count("void"), overdue: counts.find((row) => row.status === "open")?.overdue ?? 0 },
    revenue_by_month: monthsBetween(range.from, range.to).map((m) => ({
      month: m,
      revenue: byMonth.filter((row) => row.month === m).map(({ currency, amount, invoice_count }) => ({ currency, amount, invoice_count })),
    })),
    top_customers: top.map((row) => ({ ...row, amount: Number(row.amount) })),
  };
}
