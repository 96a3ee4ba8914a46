import type { Books } from "@/core/enums";
import { customersPage, deleteCustomerRow, findCustomer, insertCustomer, updateCustomerColumns, type CustomerRow } from "@/db/queries/customers";
import { ApiError } from "../errors";
import type { CustomerCreateInput, CustomerDto, CustomerUpdateInput } from "../schemas/customers";
import { page, readPage } from "./pagination";
import { sent } from "./patch";
import { deletedObject } from "./deleted";
import { notFound } from "./refusals";

function toCustomer(row: CustomerRow): CustomerDto {
  return {
    id: row.id,
    object: "customer",
    livemode: row.mode === "live",
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    tax_id: row.taxId,
    currency: row.currency,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function columns(input: CustomerUpdateInput) {
  return sent({
    name: input.name,
    email: input.email,
    phone: input.phone,
    address: input.address,
    taxId: input.tax_id,
    currency: input.currency,
    metadata: input.metadata,
  });
}

export async function listCustomers(books: Books, query: { limit: number; starting_after?: string; search?: string }) {
  const rows = await readPage(query, (request) => customersPage(books, { search: query.search }, request));
  return page(rows.map(toCustomer), query.limit);
}

export async function createCustomer(books: Books, input: CustomerCreateInput): Promise<CustomerDto> {
  return toCustomer(await insertCustomer(books, { ...columns(input), name: input.name }));
}

export async function getCustomer(books: Books, id: string): Promise<CustomerDto> {
  const row = await findCustomer(books, id);
  if (!row) throw notFound(id);
  return toCustomer(row);
}

export async function updateCustomer(books: Books, id: string, input: CustomerUpdateInput): Promise<CustomerDto> {
  const row = await updateCustomerColumns(books, id, columns(input));
  if (!row) throw notFound(id);
  return toCustomer(row);
}

/**
 * Soft delete: the customer disappears from the API, its paid and void invoices keep naming it,
 * and its drafts are deleted with it. Refused while an invoice of the customer is open.
 */
export async function deleteCustomer(books: Books, id: string): Promise<ReturnType<typeof deletedObject<"customer">>> {
  const outcome = await deleteCustomerRow(books, id);
  if (!outcome) throw notFound(id);
  const open = outcome.openInvoices;
  if (open > 0) {
    throw ApiError.of(
      "customer_has_open_invoices",
      `Customer ${id} has ${open} open invoice${open === 1 ? "" : "s"}: mark them paid or void them before deleting the customer.`,
    );
  }
  return deletedObject(books, "customer", id);
}
