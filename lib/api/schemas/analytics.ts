import { z } from "@hono/zod-openapi";
import { Amount, CalendarDate, Currency, checkDateRange, dateRange } from "./common";

export const AnalyticsQuery = z.strictObject(dateRange).superRefine(checkDateRange);

const CurrencyAmount = z
  .object({ currency: Currency, amount: Amount, invoice_count: z.number().int() })
  .openapi("CurrencyAmount", { description: "An amount in one currency and the number of invoices it adds up." });

const PerCurrency = z.array(CurrencyAmount).openapi({ description: "One entry per currency, by currency code; amounts are never converted or summed across currencies." });

export const Analytics = z
  .object({
    object: z.literal("analytics"),
    from: CalendarDate,
    to: CalendarDate,
    revenue: PerCurrency.openapi({ description: "Paid invoices, by payment day within the range." }),
    outstanding: PerCurrency.openapi({ description: "Open invoices (overdue included) dated within the range." }),
    overdue: PerCurrency.openapi({ description: "Open invoices dated within the range and past their due date today." }),
    invoice_counts: z
      .object({ draft: z.number().int(), open: z.number().int(), paid: z.number().int(), void: z.number().int(), overdue: z.number().int() })
      .openapi({ description: "Invoices dated within the range, by status; overdue ones are also counted as open." }),
    revenue_by_month: z
      .array(z.object({ month: z.string().openapi({ example: "2026-03" }), revenue: PerCurrency }))
      .openapi({ description: "Every month of the range, oldest first, with the revenue paid in it (an empty list for months without any)." }),
    top_customers: z
      .array(z.object({ customer: z.string().openapi({ example: "cus_4fJ9kQ2mX7pL0aZ3bN8c" }), name: z.string(), currency: Currency, amount: Amount, invoice_count: z.number().int() }))
      .openapi({ description: "Up to five customers per currency with the most revenue in the range, by currency then amount." }),
  })
  .openapi("Analytics");

export type AnalyticsDto = z.input<typeof Analytics>;
