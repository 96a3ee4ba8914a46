import { z } from "@hono/zod-openapi";
import { MAX_RANGE_DAYS } from "@/lib/input-rules";
import { CURRENCY_CODES } from "@/lib/money";
import { customerDetails } from "./customers";
import { Amount, CalendarDate, Count, Currency, checkDateRange, dateRange, objectId, Livemode } from "./common";

export const TOP_CUSTOMERS_PER_CURRENCY = 5;
/** Months a range of MAX_RANGE_DAYS can touch, with room to spare: one every 28 days, plus one. */
const MAX_MONTHS = Math.ceil(MAX_RANGE_DAYS / 28) + 1;

export const AnalyticsQuery = z.strictObject(dateRange).superRefine(checkDateRange);

const CurrencyAmount = z
  .object({ currency: Currency, amount: Amount, invoice_count: Count })
  .openapi("CurrencyAmount", { description: "An amount in one currency and the number of invoices it adds up." });

const PerCurrency = z
  .array(CurrencyAmount)
  .max(CURRENCY_CODES.length)
  .openapi({ description: "One entry per currency, by currency code; amounts are never converted or summed across currencies." });

export const Analytics = z
  .object({
    object: z.literal("analytics"),
    livemode: Livemode,
    from: CalendarDate,
    to: CalendarDate,
    revenue: PerCurrency.openapi({ description: "Paid invoices, by payment day within the range." }),
    outstanding: PerCurrency.openapi({ description: "Open invoices (overdue included) dated within the range." }),
    overdue: PerCurrency.openapi({ description: "Open invoices dated within the range and past their due date today." }),
    invoice_counts: z
      .object({ draft: Count, open: Count, paid: Count, void: Count, overdue: Count })
      .openapi({ description: "Invoices dated within the range, by status; overdue ones are also counted as open." }),
    revenue_by_month: z
      .array(
        z.object({
          month: z
            .string()
            .regex(/^\d{4}-\d\d$/)
            .max(7)
            .openapi({ example: "2026-03" }),
          revenue: PerCurrency,
        }),
      )
      .max(MAX_MONTHS)
      .openapi({ description: "Every month of the range, oldest first, with the revenue paid in it (an empty list for months without any)." }),
    top_customers: z
      .array(z.object({ customer: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c"), name: customerDetails.name, currency: Currency, amount: Amount, invoice_count: Count }))
      .max(TOP_CUSTOMERS_PER_CURRENCY * CURRENCY_CODES.length)
      .openapi({ description: "Up to five customers per currency with the most revenue in the range, by currency then amount." }),
  })
  .openapi("Analytics");

export type AnalyticsDto = z.input<typeof Analytics>;
