import type { InvoiceDto } from "../schemas/invoices";
import { renderInvoicePdf } from "./invoice-pdf";

/** Runs in a worker thread of the pool in pdf.ts: laying out a long invoice takes hundreds of ms. */
export default function render({ organization, invoice }: { organization: string; invoice: InvoiceDto }): Promise<Uint8Array> {
  return renderInvoicePdf(organization, invoice);
}
