import { z } from "@hono/zod-openapi";
import { Currency, Metadata, Timestamp, deletedOf, idParams, listOf, pageQuery, text } from "./common";

const optionalLine = (max: number, example: string) => text(max, example).nullable().optional();

export const Address = z
  .strictObject({
    line1: optionalLine(200, "Hauptstraße 5"),
    line2: optionalLine(200, "3rd floor"),
    city: optionalLine(100, "Berlin"),
    state: optionalLine(100, "BE"),
    postal_code: optionalLine(20, "10115"),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, { error: "Use an ISO 3166-1 alpha-2 country code in capitals, such as DE." })
      .nullable()
      .optional()
      .openapi({ description: "ISO 3166-1 alpha-2 country code.", example: "DE" }),
  })
  .openapi("Address", { description: "Billing address. Replaced as a whole on update." });

const fields = {
  name: text(200, "Jane Doe GmbH"),
  email: z.email({ error: "Not a valid email address." }).max(254).nullable().optional().openapi({ example: "billing@janedoe.example" }),
  phone: text(40, "+49 30 1234567").nullable().optional(),
  address: Address.nullable().optional(),
  tax_id: text(64, "DE123456789").nullable().optional().openapi({ description: "VAT number or other tax id, printed on invoices." }),
  currency: Currency.nullable().optional().openapi({ description: "Default currency of this customer's invoices." }),
  metadata: Metadata.optional(),
};

export const CustomerCreate = z.strictObject(fields).openapi("CustomerCreate");

export const CustomerUpdate = z
  .strictObject({ ...fields, name: fields.name.optional() })
  .openapi("CustomerUpdate", { description: "Only the fields sent change; null clears an optional field." });

export const Customer = z
  .object({
    id: z.string().openapi({ example: "cus_4fJ9kQ2mX7pL0aZ3bN8c" }),
    object: z.literal("customer"),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: Address.nullable(),
    tax_id: z.string().nullable(),
    currency: Currency.nullable(),
    metadata: Metadata,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Customer");

export const CustomerList = listOf(Customer, "CustomerList");
export const DeletedCustomer = deletedOf("customer", "cus_4fJ9kQ2mX7pL0aZ3bN8c");
export const CustomerParams = idParams("cus_4fJ9kQ2mX7pL0aZ3bN8c");

export const CustomerListQuery = z.strictObject({
  ...pageQuery("cus_4fJ9kQ2mX7pL0aZ3bN8c"),
  search: text(200, "doe").optional().openapi({ description: "Case-insensitive text found in the name or email.", example: "doe" }),
});

export type CustomerCreateInput = z.infer<typeof CustomerCreate>;
export type CustomerUpdateInput = z.infer<typeof CustomerUpdate>;
export type CustomerDto = z.input<typeof Customer>;
