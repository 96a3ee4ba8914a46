import { customersPage, deleteLiveCustomer, findLiveCustomer, insertCustomer, updateLiveCustomer, type CustomerRow } from "@/db/queries/customers";
import { ApiError } from "../errors";
import type { CustomerCreateInput, CustomerDto, CustomerUpdateInput } from "../schemas/customers";
import { page, readPage } from "./pagination";
import { sent } from "./patch";
import { notFound } from "./refusals";

function toCustomer(row: CustomerRow): CustomerDto {
  return {
    id: row.id,
    object: "customer",
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

export async function listCustomers(orgId: string, query: { limit: number; starting_after?: string; search?: string }) {
  const rows = await readPage(query, (request) => customersPage(orgId, { search: query.search }, request));
  return page(rows.map(toCustomer), query.limit);
}

export async function createCustomer(orgId: string, input: CustomerCreateInput): Promise<CustomerDto> {
  return toCustomer(await insertCustomer(orgId, { ...columns(input), name: input.name }));
}

export async function getCustomer(orgId: string, id: string): Promise<CustomerDto> {
  const row = await findLiveCustomer(orgId, id);
  if (!row) throw notFound(id);
  return toCustomer(row);
}

export async function updateCustomer(orgId: string, id: string, input: CustomerUpdateInput): Promise<CustomerDto> {
  const row = await updateLiveCustomer(orgId, id, columns(input));
  if (!row) throw notFound(id);
  return toCustomer(row);
}

/**
 * Soft delete: the customer disappears from the API, its paid and void invoices keep naming it,
 * and its drafts are deleted with it. Refused while an invoice of the customer is open.
 */
export async function deleteCustomer(orgId: string, id: string): Promise<{ id: string; object: "customer"; deleted: true }> {
  const outcome = await deleteLiveCustomer(orgId, id);
  if (!outcome) throw notFound(id);
  const open = outcome.openInvoices;
  if (open > 0) {
    throw ApiError.of(
      "customer_has_open_invoices",
      `Customer ${id} has ${open} open invoice${open === 1 ? "" : "s"}: mark them paid or void them before deleting the customer.`,
    );
  }
  return { id, object: "customer", deleted: true };
}
