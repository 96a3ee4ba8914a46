import { z } from "@hono/zod-openapi";
import { Amount, Currency, QueryBoolean, TaxRate, Timestamp, idParams, listOf, objectId, pageQuery, text, Livemode } from "./common";

const StockQuantity = z
  .number()
  .int({ error: "Stock is a whole number." })
  .min(0, { error: "Stock cannot be negative." })
  .max(1_000_000_000, { error: "Stock is at most 1,000,000,000." })
  .nullable()
  .openapi({
    format: "int32",
    description: "Units in stock; null when stock is not tracked. Finalizing an invoice takes its units out of stock, voiding it puts them back.",
    example: 120,
  });

const LIMITS = { name: 200, description: 2000, sku: 64 } as const;

const fields = {
  name: text(LIMITS.name, "Espresso beans 1 kg"),
  description: text(LIMITS.description, "Single-origin, medium roast.").nullable().optional(),
  sku: z
    .string()
    .max(LIMITS.sku, { error: "SKUs are 1 to 64 letters, digits, dots, dashes, underscores or slashes.", abort: true })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/, { error: "SKUs are 1 to 64 letters, digits, dots, dashes, underscores or slashes." })
    .nullable()
    .optional()
    .openapi({ description: "Stock keeping unit, unique within your organization.", example: "BEAN-1KG" }),
  unit_amount: Amount,
  currency: Currency,
  tax_rate: TaxRate.default(0),
  stock_quantity: StockQuantity.optional(),
};

export const ProductCreate = z.strictObject(fields).openapi("ProductCreate");

export const ProductUpdate = z
  .strictObject({
    name: fields.name.optional(),
    description: fields.description,
    sku: fields.sku,
    unit_amount: Amount.optional(),
    currency: Currency.optional(),
    tax_rate: TaxRate.optional(),
    stock_quantity: StockQuantity.optional(),
    active: z.boolean().optional().openapi({ description: "false archives the product, true restores it." }),
  })
  .openapi("ProductUpdate", { description: "Only the fields sent change; null clears an optional field. Invoices already written keep their prices." });

export const Product = z
  .object({
    id: objectId("prod_8sD2nV5bQ1wE6rT9yU3i"),
    object: z.literal("product"),
    livemode: Livemode,
    name: z.string().max(LIMITS.name),
    description: z.string().max(LIMITS.description).nullable(),
    sku: z.string().max(LIMITS.sku).nullable(),
    unit_amount: Amount,
    currency: Currency,
    tax_rate: TaxRate,
    active: z.boolean().openapi({ description: "Archived products are not active and cannot be added to invoices." }),
    stock_quantity: StockQuantity,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Product");

export const ProductList = listOf(Product, "ProductList");
export const ProductParams = idParams("prod_8sD2nV5bQ1wE6rT9yU3i");

export const ProductListQuery = z.strictObject({
  ...pageQuery("prod_8sD2nV5bQ1wE6rT9yU3i"),
  active: QueryBoolean.optional().openapi({ description: "true: only active products; false: only archived ones." }),
});

export type ProductCreateInput = z.infer<typeof ProductCreate>;
export type ProductUpdateInput = z.infer<typeof ProductUpdate>;
export type ProductDto = z.input<typeof Product>;
