import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { organizations } from "@/db/schema";
import { renderInvoicePdf } from "./invoice-pdf";
import { getInvoice } from "./invoices";

/** The invoice as a PDF and the file name to save it under: INV-000123.pdf, or draft-in_….pdf. */
export async function invoicePdf(orgId: string, invoiceId: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const invoice = await getInvoice(orgId, invoiceId);
  const [org] = await getDb().select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  const bytes = await renderInvoicePdf(org!.name, invoice);
  return { bytes, filename: `${invoice.number ?? `draft-${invoice.id}`}.pdf` };
}
