import type { Books } from "@/core/enums";
import type { DbOrTx } from "@/db";
import type { InvoiceLineRow, NewInvoiceLine } from "@/db/queries/invoices";
import { productsByIds } from "@/db/queries/products";
import { newId } from "@/core/ids";
import { invoiceTotals, isSafeAmount, lineAmounts, percentToPpm, ppmToPercent } from "@/lib/money";
import { ApiError } from "../errors";
import type { LineInputValue } from "../schemas/invoices";
import { invalid, notFound } from "./refusals";

export interface PricedInvoice {
  lines: NewInvoiceLine[];
  subtotal: number;
  tax: number;
  total: number;
}

function safe(value: bigint, path: string): number {
  if (!isSafeAmount(value)) throw invalid(path, "This amount would exceed 9007199254740991 minor units.");
  return Number(value);
}

/**
 * Lines as the invoice will store them: catalog products fill in what the line leaves out, then
 * the rounding rule of lib/money.ts gives each line's amount and tax and the invoice's totals.
 */
export async function priceLines(db: DbOrTx, books: Books, currency: string, inputs: LineInputValue[]): Promise<PricedInvoice> {
  const productIds = [...new Set(inputs.flatMap((line) => (line.product ? [line.product] : [])))];
  const catalog = await productsByIds(books, productIds, db);

  const lines = inputs.map((input, position) => {
    const path = `lines.${position}`;
    const product = input.product ? catalog.find((row) => row.id === input.product) : undefined;
    if (input.product && !product) throw notFound(input.product, `${path}.product`);
    if (product && !product.active)
      throw ApiError.of("product_archived", `Product ${product.id} (${product.name}) is archived and cannot be added to invoices.`);
    if (product && product.currency !== currency) {
      throw invalid(`${path}.product`, `Product ${product.id} is priced in ${product.currency}; this invoice is in ${currency}.`);
    }
    const unitAmount = input.unit_amount ?? product!.unitAmount;
    const taxRatePpm = input.tax_rate !== undefined ? percentToPpm(input.tax_rate) : (product?.taxRatePpm ?? 0);
    const { amount, tax } = lineAmounts({ quantity: input.quantity, unitAmount, taxRatePpm });
    return {
      id: newId("li"),
      position,
      productId: product?.id ?? null,
      description: input.description ?? product!.name,
      quantity: input.quantity,
      unitAmount,
      taxRatePpm,
      amount,
      tax,
    };
  });

  const totals = invoiceTotals(lines);
  return {
    lines: lines.map((line, i) => ({ ...line, amount: safe(line.amount, `lines.${i}`), tax: safe(line.tax, `lines.${i}`) })),
    subtotal: safe(totals.subtotal, "lines"),
    tax: safe(totals.tax, "lines"),
    total: safe(totals.total, "lines"),
  };
}

/** Stored lines as the input that would write them again, to re-price a draft in another currency. */
export function asInputs(lines: InvoiceLineRow[]): LineInputValue[] {
  return lines.map((line) => ({
    product: line.productId ?? undefined,
    description: line.description,
    quantity: line.quantity,
    unit_amount: line.unitAmount,
    tax_rate: ppmToPercent(line.taxRatePpm),
  }));
}
