import { and, count, eq, ilike, inArray, isNull, or } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import { customers, invoices } from "@/db/schema";
import { newId } from "@/core/ids";
import { ApiError } from "../errors";
import type { CustomerCreateInput, CustomerDto, CustomerUpdateInput } from "../schemas/customers";
import { after, newestFirst, page, type Keyset } from "./pagination";
import { sent } from "./patch";
import { notFound } from "./refusals";

type CustomerRow = typeof customers.$inferSelect;

const KEYS: Keyset = { table: customers, orgId: customers.orgId, id: customers.id, createdAt: customers.createdAt };

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

const live = (orgId: string, id: string) => and(eq(customers.orgId, orgId), eq(customers.id, id), isNull(customers.deletedAt));

/** `%`, `_` and `\` match themselves in a search. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listCustomers(orgId: string, query: { limit: number; starting_after?: string; search?: string }) {
  const rows = await getDb()
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.orgId, orgId),
        isNull(customers.deletedAt),
        query.search ? or(ilike(customers.name, containing(query.search)), ilike(customers.email, containing(query.search))) : undefined,
        await after(KEYS, orgId, query.starting_after),
      ),
    )
    .orderBy(...newestFirst(KEYS))
    .limit(query.limit + 1);
  return page(rows.map(toCustomer), query.limit);
}

export async function createCustomer(orgId: string, input: CustomerCreateInput): Promise<CustomerDto> {
  const [row] = await getDb()
    .insert(customers)
    .values({ orgId, id: newId("cus"), ...columns(input), name: input.name })
    .returning();
  return toCustomer(row!);
}

export async function getCustomer(orgId: string, id: string): Promise<CustomerDto> {
  const [row] = await getDb().select().from(customers).where(live(orgId, id));
  if (!row) throw notFound(id);
  return toCustomer(row);
}

export async function updateCustomer(orgId: string, id: string, input: CustomerUpdateInput): Promise<CustomerDto> {
  const [row] = await getDb()
    .update(customers)
    .set({ ...columns(input), updatedAt: new Date() })
    .where(live(orgId, id))
    .returning();
  if (!row) throw notFound(id);
  return toCustomer(row);
}

/**
 * Locks live customers against deletion until the transaction ends (FOR SHARE), in id order.
 * Every transaction that writes a customer's drafts or finalizes them takes this lock before any
 * invoice row lock, the order deleteCustomer follows too, so the two never deadlock.
 */
export async function lockCustomers(tx: DbOrTx, orgId: string, ids: string[]): Promise<CustomerRow[]> {
  return tx
    .select()
    .from(customers)
    .where(and(eq(customers.orgId, orgId), inArray(customers.id, ids), isNull(customers.deletedAt)))
    .orderBy(customers.id)
    .for("share");
}

/**
 * Soft delete: the customer disappears from the API, its paid and void invoices keep naming it,
 * and its drafts are deleted with it. Refused while an invoice of the customer is open.
 */
export async function deleteCustomer(orgId: string, id: string): Promise<{ id: string; object: "customer"; deleted: true }> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select({ id: customers.id }).from(customers).where(live(orgId, id)).for("update");
    if (!row) throw notFound(id);
    const of = and(eq(invoices.orgId, orgId), eq(invoices.customerId, id));
    const [open] = await tx.select({ n: count() }).from(invoices).where(and(of, eq(invoices.status, "open")));
    if (open!.n > 0) {
      throw ApiError.of("customer_has_open_invoices", `Customer ${id} has ${open!.n} open invoice${open!.n === 1 ? "" : "s"}: mark them paid or void them before deleting the customer.`);
    }
    await tx.delete(invoices).where(and(of, eq(invoices.status, "draft")));
    await tx.update(customers).set({ deletedAt: new Date(), updatedAt: new Date() }).where(live(orgId, id));
    return { id, object: "customer" as const, deleted: true as const };
  });
}
