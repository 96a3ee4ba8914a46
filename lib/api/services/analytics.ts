import type { Books } from "@/core/enums";
import { invoiceFigures } from "@/db/queries/analytics";
import { dateRangeProblem } from "@/lib/input-rules";
import { utcDay, utcDayStart } from "@/core/time";
import { TOP_CUSTOMERS_PER_CURRENCY, type AnalyticsDto } from "../schemas/analytics";
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

const perCurrency = (rows: { currency: string; amount: number; invoiceCount: number }[]) =>
  rows.map(({ currency, amount, invoiceCount }) => ({ currency, amount, invoice_count: invoiceCount }));

/** Business metrics of one organization; every amount stays in its own currency. */
export async function analytics(books: Books, range: { from: string; to: string }): Promise<AnalyticsDto> {
  const { revenue, outstanding, overdue, counts, byMonth, top } = await invoiceFigures(books, range, TOP_CUSTOMERS_PER_CURRENCY);
  const count = (status: string) => counts.find((row) => row.status === status)?.n ?? 0;
  return {
    object: "analytics",
    livemode: books.mode === "live",
    from: range.from,
    to: range.to,
    revenue: perCurrency(revenue),
    outstanding: perCurrency(outstanding),
    overdue: perCurrency(overdue),
    invoice_counts: {
      draft: count("draft"),
      open: count("open"),
      paid: count("paid"),
      void: count("void"),
      overdue: counts.find((row) => row.status === "open")?.overdue ?? 0,
    },
    revenue_by_month: monthsBetween(range.from, range.to).map((m) => ({
      month: m,
      revenue: perCurrency(byMonth.filter((row) => row.month === m)),
    })),
    top_customers: top.map(({ customer, name, currency, amount, invoiceCount }) => ({
      customer,
      name,
      currency,
      amount: Number(amount),
      invoice_count: invoiceCount,
    })),
  };
}
