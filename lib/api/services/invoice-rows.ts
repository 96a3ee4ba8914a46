import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { customers, invoiceLineItems, invoices, type CustomerDetails } from "@/db/schema";
import { ppmToPercent } from "@/lib/money";
import { utcDay } from "@/core/time";
import type { InvoiceDto, LineItemDto } from "../schemas/invoices";

export type InvoiceRow = typeof invoices.$inferSelect;
type LineRow = typeof invoiceLineItems.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

/** The day an invoice is dated: its issue date, or for a draft without one the day it was created (UTC). */
export const invoiceDate = sql`coalesce(${invoices.issueDate}, (${invoices.createdAt} at time zone 'UTC')::date)`;

export function detailsOf(customer: CustomerRow): CustomerDetails {
  return { name: customer.name, email: customer.email, phone: customer.phone, address: customer.address, tax_id: customer.taxId };
}

function toLine(row: LineRow): LineItemDto {
  return {
    id: row.id,
    object: "line_item",
    product: row.productId,
    description: row.description,
    quantity: row.quantity,
    unit_amount: row.unitAmount,
    tax_rate: ppmToPercent(row.taxRatePpm),
    amount: row.amount,
    tax: row.tax,
  };
}

function toInvoice(row: InvoiceRow, lines: LineRow[], details: CustomerDetails, today: string): InvoiceDto {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    object: "invoice",
    number: row.number,
    status: row.status,
    overdue: row.status === "open" && row.dueDate !== null && row.dueDate < today,
    customer: row.customerId,
    customer_details: details,
    currency: row.currency,
    lines: lines.map(toLine),
    subtotal: row.subtotal,
    tax: row.tax,
    total: row.total,
    notes: row.notes,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    finalized_at: iso(row.finalizedAt),
    paid_at: iso(row.paidAt),
    voided_at: iso(row.voidedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Invoice objects for rows of one organization: their lines and, for drafts, the customer as it is now. */
export async function withLines(db: DbOrTx, orgId: string, rows: InvoiceRow[]): Promise<InvoiceDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const lines = await db
    .select()
    .from(invoiceLineItems)
    .where(and(eq(invoiceLineItems.orgId, orgId), inArray(invoiceLineItems.invoiceId, ids)))
    .orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position));
  const draftCustomers = [...new Set(rows.filter((row) => !row.customerDetails).map((row) => row.customerId))];
  const live = draftCustomers.length
    ? await db.select().from(customers).where(and(eq(customers.orgId, orgId), inArray(customers.id, draftCustomers)))
    : [];
  const today = utcDay(new Date());
  return rows.map((row) => {
    const details = row.customerDetails ?? detailsOf(live.find((customer) => customer.id === row.customerId)!);
    return toInvoice(row, lines.filter((line) => line.invoiceId === row.id), details, today);
  });
}

export async function invoiceRow(db: DbOrTx, orgId: string, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(and(eq(invoices.orgId, orgId), eq(invoices.id, id)));
  return row;
}
