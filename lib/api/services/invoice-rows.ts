import type { Books } from "@/core/enums";
import type { DbOrTx } from "@/db";
import { customersByIds, type CustomerRow } from "@/db/queries/customers";
import { linesOfInvoices, type CustomerDetails, type InvoiceLineRow, type InvoiceRow } from "@/db/queries/invoices";
import { ppmToPercent } from "@/lib/money";
import { utcDay } from "@/core/time";
import type { InvoiceDto, LineItemDto } from "../schemas/invoices";

export function detailsOf(customer: CustomerRow): CustomerDetails {
  return { name: customer.name, email: customer.email, phone: customer.phone, address: customer.address, tax_id: customer.taxId };
}

function toLine(row: InvoiceLineRow): LineItemDto {
  return {
    id: row.id,
    object: "line_item",
    livemode: row.mode === "live",
    product: row.productId,
    description: row.description,
    quantity: row.quantity,
    unit_amount: row.unitAmount,
    tax_rate: ppmToPercent(row.taxRatePpm),
    amount: row.amount,
    tax: row.tax,
  };
}

function toInvoice(row: InvoiceRow, lines: InvoiceLineRow[], details: CustomerDetails, today: string): InvoiceDto {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    object: "invoice",
    livemode: row.mode === "live",
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
export async function withLines(books: Books, rows: InvoiceRow[], db?: DbOrTx): Promise<InvoiceDto[]> {
  if (rows.length === 0) return [];
  const lines = await linesOfInvoices(
    books,
    rows.map((row) => row.id),
    db,
  );
  const draftCustomers = [...new Set(rows.filter((row) => !row.customerDetails).map((row) => row.customerId))];
  const live = await customersByIds(books, draftCustomers, db);
  const today = utcDay(new Date());
  return rows.map((row) => {
    const details = row.customerDetails ?? detailsOf(live.find((customer) => customer.id === row.customerId)!);
    return toInvoice(
      row,
      lines.filter((line) => line.invoiceId === row.id),
      details,
      today,
    );
  });
}
