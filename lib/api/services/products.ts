import type { Books } from "@/core/enums";
import { findProduct, insertProduct, productsPage, updateProductColumns, type ProductRow } from "@/db/queries/products";
import { percentToPpm, ppmToPercent } from "@/lib/money";
import { ApiError } from "../errors";
import type { ProductCreateInput, ProductDto, ProductUpdateInput } from "../schemas/products";
import { page, readPage } from "./pagination";
import { sent } from "./patch";
import { notFound } from "./refusals";

function toProduct(row: ProductRow): ProductDto {
  return {
    id: row.id,
    object: "product",
    livemode: row.mode === "live",
    name: row.name,
    description: row.description,
    sku: row.sku,
    unit_amount: row.unitAmount,
    currency: row.currency,
    tax_rate: ppmToPercent(row.taxRatePpm),
    active: row.active,
    stock_quantity: row.stockQuantity,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function columns(input: ProductUpdateInput) {
  return sent({
    name: input.name,
    description: input.description,
    sku: input.sku,
    unitAmount: input.unit_amount,
    currency: input.currency,
    taxRatePpm: input.tax_rate === undefined ? undefined : percentToPpm(input.tax_rate),
    stockQuantity: input.stock_quantity,
    active: input.active,
  });
}

/** Runs a write that may give a product a SKU another product of the organization has. */
async function uniqueSku<T>(sku: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === "23505") throw ApiError.of("sku_taken", `Another product already has the SKU ${sku}.`);
    throw error;
  }
}

export async function listProducts(books: Books, query: { limit: number; starting_after?: string; active?: boolean }) {
  const rows = await readPage(query, (request) => productsPage(books, { active: query.active }, request));
  return page(rows.map(toProduct), query.limit);
}

export async function createProduct(books: Books, input: ProductCreateInput): Promise<ProductDto> {
  const row = await uniqueSku(input.sku, () =>
    insertProduct(books, { ...columns(input), name: input.name, unitAmount: input.unit_amount, currency: input.currency }),
  );
  return toProduct(row);
}

export async function getProduct(books: Books, id: string): Promise<ProductDto> {
  const row = await findProduct(books, id);
  if (!row) throw notFound(id);
  return toProduct(row);
}

export async function updateProduct(books: Books, id: string, input: ProductUpdateInput): Promise<ProductDto> {
  const row = await uniqueSku(input.sku, () => updateProductColumns(books, id, columns(input)));
  if (!row) throw notFound(id);
  return toProduct(row);
}

/** Archiving keeps the product for the invoices that sell it; archiving twice changes nothing. */
export function archiveProduct(books: Books, id: string): Promise<ProductDto> {
  return updateProduct(books, id, { active: false });
}
