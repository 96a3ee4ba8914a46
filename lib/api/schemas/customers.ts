import { z } from "@hono/zod-openapi";
import { Currency, Metadata, Timestamp, deletedOf, idParams, listOf, objectId, pageQuery, text, Livemode } from "./common";

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
      .max(2, { error: "Use an ISO 3166-1 alpha-2 country code in capitals, such as DE.", abort: true })
      .regex(/^[A-Z]{2}$/, { error: "Use an ISO 3166-1 alpha-2 country code in capitals, such as DE." })
      .nullable()
      .optional()
      .openapi({ description: "ISO 3166-1 alpha-2 country code.", example: "DE" }),
  })
  .openapi("Address", { description: "Billing address. Replaced as a whole on update." });

const LIMITS = { name: 200, email: 254, phone: 40, taxId: 64 } as const;

const fields = {
  name: text(LIMITS.name, "Jane Doe GmbH"),
  email: z.email({ error: "Not a valid email address." }).max(LIMITS.email).nullable().optional().openapi({ example: "billing@janedoe.example" }),
  phone: text(LIMITS.phone, "+49 30 1234567").nullable().optional(),
  address: Address.nullable().optional(),
  tax_id: text(LIMITS.taxId, "DE123456789").nullable().optional().openapi({ description: "VAT number or other tax id, printed on invoices." }),
  currency: Currency.nullable().optional().openapi({ description: "Default currency of this customer's invoices." }),
  metadata: Metadata.optional(),
};

/** The customer's billing details as answered: by a customer, and frozen on a finalized invoice. */
export const customerDetails = {
  name: z.string().max(LIMITS.name),
  email: z.string().max(LIMITS.email).nullable(),
  phone: z.string().max(LIMITS.phone).nullable(),
  address: Address.nullable(),
  tax_id: z.string().max(LIMITS.taxId).nullable(),
};

export const CustomerCreate = z.strictObject(fields).openapi("CustomerCreate");

export const CustomerUpdate = z
  .strictObject({ ...fields, name: fields.name.optional() })
  .openapi("CustomerUpdate", { description: "Only the fields sent change; null clears an optional field." });

export const Customer = z
  .object({
    id: objectId("cus_4fJ9kQ2mX7pL0aZ3bN8c"),
    object: z.literal("customer"),
    livemode: Livemode,
    ...customerDetails,
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
