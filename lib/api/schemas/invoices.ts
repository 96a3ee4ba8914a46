import { z } from "@hono/zod-openapi";
import { customerDetails } from "./customers";
import {
  Amount,
  CalendarDate,
  Currency,
  TaxRate,
  Timestamp,
  checkDateRange,
  dateRange,
  deletedOf,
  idParams,
  listOf,
  objectId,
  pageQuery,
  text,
  Livemode,
} from "./common";

const INVOICE_STATUSES = ["draft", "open", "paid", "void"] as const;
const QUANTITY_MAX = 1_000_000;
const LINES_MAX = 250;
const LIMITS = { description: 500, notes: 2000 } as const;

const LineInput = z
  .strictObject({
    product: objectId("prod_8sD2nV5bQ1wE6rT9yU3i").optional().openapi({
      description: "A product of your catalog: its name, price and tax rate are the defaults of this line. Its currency must be the invoice's.",
      example: "prod_8sD2nV5bQ1wE6rT9yU3i",
    }),
    description: text(LIMITS.description, "Espresso beans 1 kg").optional().openapi({ description: "Required without a product." }),
    quantity: z
      .number()
      .int({ error: "Quantities are whole numbers from 1 to 1,000,000." })
      .min(1, { error: "Quantities are whole numbers from 1 to 1,000,000." })
      .max(QUANTITY_MAX, { error: "Quantities are whole numbers from 1 to 1,000,000." })
      .openapi({ format: "int32", example: 3 }),
    unit_amount: Amount.optional().openapi({ description: "Price of one unit in minor units; required without a product." }),
    tax_rate: TaxRate.optional().openapi({ description: "Percentage; defaults to the product's rate, or 0 without a product." }),
  })
  .superRefine((line, ctx) => {
    if (line.product) return;
    for (const field of ["description", "unit_amount"] as const) {
      if (line[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "Required for a line without a product." });
    }
  })
  .openapi("InvoiceLineInput", { description: "A catalog product (`product`) or free text (`description` and `unit_amount`)." });

const Lines = z
  .array(LineInput)
  .min(1, { error: "An invoice has at least one line." })
  .max(LINES_MAX, { error: `An invoice has at most ${LINES_MAX} lines.` });

const editable = {
  currency: Currency.optional().openapi({ description: "Defaults to the customer's currency." }),
  notes: text(LIMITS.notes, "Thank you for your business.").nullable().optional(),
  issue_date: CalendarDate.nullable().optional().openapi({ description: "Defaults to the day of finalization (UTC)." }),
  due_date: CalendarDate.nullable().optional().openapi({ description: "On or after the issue date; defaults to 30 days after it." }),
};

export const InvoiceCreate = z.strictObject({ customer: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c"), lines: Lines, ...editable }).openapi("InvoiceCreate");

export const InvoiceUpdate = z
  .strictObject({
    customer: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c").optional(),
    lines: Lines.optional().openapi({ description: "Replaces every line." }),
    ...editable,
  })
  .openapi("InvoiceUpdate", { description: "Drafts only. Only the fields sent change; null clears an optional field." });

const LineItem = z
  .object({
    id: objectId("li_2bN7vC4xZ9mQ1wE5rT8y"),
    object: z.literal("line_item"),
    livemode: Livemode,
    product: objectId("prod_8sD2nV5bQ1wE6rT9yU3i").nullable(),
    description: z.string().max(LIMITS.description),
    quantity: z.number().int().min(1).max(QUANTITY_MAX).openapi({ format: "int32" }),
    unit_amount: Amount,
    tax_rate: TaxRate,
    amount: Amount.openapi({ description: "quantity × unit_amount." }),
    tax: Amount.openapi({ description: "amount × tax_rate, rounded half up to a whole minor unit." }),
  })
  .openapi("LineItem");

export const CustomerDetails = z
  .object(customerDetails)
  .openapi("CustomerDetails", { description: "The customer as billed: follows the customer while a draft, frozen at finalization." });

export const Invoice = z
  .object({
    id: objectId("in_9xK3mB6nV1cZ8aS2dF5g"),
    object: z.literal("invoice"),
    livemode: Livemode,
    number: z
      .string()
      .max(32)
      .nullable()
      .openapi({ description: "INV-000123: the organization's next number, given at finalization without gaps.", example: "INV-000123" }),
    status: z.enum(INVOICE_STATUSES).openapi({ description: "draft → open (finalize) → paid (pay) or void (void)." }),
    overdue: z.boolean().openapi({ description: "Open and past its due date (UTC)." }),
    customer: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c"),
    customer_details: CustomerDetails,
    currency: Currency,
    lines: z.array(LineItem).max(LINES_MAX),
    subtotal: Amount.openapi({ description: "Sum of the lines' amounts." }),
    tax: Amount.openapi({ description: "Sum of the lines' rounded taxes." }),
    total: Amount.openapi({ description: "subtotal + tax." }),
    notes: z.string().max(LIMITS.notes).nullable(),
    issue_date: CalendarDate.nullable(),
    due_date: CalendarDate.nullable(),
    finalized_at: Timestamp.nullable(),
    paid_at: Timestamp.nullable(),
    voided_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Invoice");

export const InvoiceList = listOf(Invoice, "InvoiceList");
export const DeletedInvoice = deletedOf("invoice", "in_9xK3mB6nV1cZ8aS2dF5g");
export const InvoiceParams = idParams("in_9xK3mB6nV1cZ8aS2dF5g");

export const InvoiceListQuery = z
  .strictObject({
    ...pageQuery("in_9xK3mB6nV1cZ8aS2dF5g"),
    status: z
      .enum([...INVOICE_STATUSES, "overdue"])
      .optional()
      .openapi({ description: "overdue: open invoices past their due date." }),
    customer: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c").optional().openapi({ description: "Only this customer's invoices." }),
    ...dateRange,
  })
  .superRefine(checkDateRange);

export type InvoiceCreateInput = z.infer<typeof InvoiceCreate>;
export type InvoiceUpdateInput = z.infer<typeof InvoiceUpdate>;
export type LineInputValue = z.infer<typeof LineInput>;
export type InvoiceListFilter = z.infer<typeof InvoiceListQuery>;
export type InvoiceDto = z.input<typeof Invoice>;
export type LineItemDto = z.input<typeof LineItem>;
