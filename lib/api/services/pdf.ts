import type { Books } from "@/core/enums";
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { findIssuer } from "@/db/queries/invoices";
import type { InvoiceDto } from "../schemas/invoices";
import { getInvoice } from "./invoices";

// Laying out a 250-line invoice takes 250–400 ms of CPU in pdf-lib. Done on the main thread it
// would hold the event loop (and every other request) that long (50 ms at most), so
// PDFs are rendered by a small pool of worker threads, one core left for the event loop.
// The worker's file sits beside this module: pdf-worker.ts, loaded through tsx as the process
// itself is, when run from the sources (development, tests); pdf-worker.js in the compiled servers
// (scripts/build.mjs). It takes none of the process's other flags (--expose-gc, say, is refused in
// a worker) but source maps.
const fromSources = import.meta.url.endsWith(".ts");
let pool: Piscina | undefined;

function renderer(): Piscina {
  pool ??= new Piscina({
    filename: new URL(fromSources ? "./pdf-worker.ts" : "./pdf-worker.js", import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 30_000,
    execArgv: fromSources ? ["--import", "tsx"] : process.sourceMapsEnabled ? ["--enable-source-maps"] : [],
  });
  return pool;
}

function renderInWorker(organization: string, invoice: InvoiceDto): Promise<Uint8Array> {
  return renderer().run({ organization, invoice });
}

/** The invoice as a PDF and the file name to save it under: INV-000123.pdf, or draft-in_….pdf. */
export async function invoicePdf(books: Books, invoiceId: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const invoice = await getInvoice(books, invoiceId);
  const org = await findIssuer(books.orgId);
  const bytes = await renderInWorker(org!.name, invoice);
  return { bytes, filename: `${invoice.number ?? `draft-${invoice.id}`}.pdf` };
}
