import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { deleteTestDataAction } from "@/app/[orgSlug]/settings/api/actions";
import { getDb } from "@/db";
import { activityLog, apiKeys } from "@/db/schema";
import { countTestData } from "@/db/queries/test-data";
import type { Role } from "@/core/enums";
import { listCustomers } from "@/lib/api/services/customers";
import { createCustomer } from "@/lib/api/services/customers";
import { createInvoice, listInvoices } from "@/lib/api/services/invoices";
import { createProduct } from "@/lib/api/services/products";
import { finalizeInvoice } from "@/lib/api/services/invoice-lifecycle";
import { createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { orgFingerprint } from "./helpers/fuzz-probe";

// "Delete all test data" (docs/features/test-mode.md#delete-all-test-data): owners only, in
// sudo mode (tests/sudo-mode.test.ts), one transaction, one history entry, live books untouched.

let team: Awaited<ReturnType<typeof createTeam>>;

/** Books of each mode: a customer, a product and a finalized invoice, and a key. */
async function fillBooks() {
  for (const mode of ["live", "test"] as const) {
    const books = { orgId: team.org.id, mode };
    await insertKey(team.org.id, { mode, name: `${mode} key` });
    const customer = await createCustomer(books, { name: `${mode} customer`, currency: "EUR" });
    const product = await createProduct(books, { name: `${mode} beans`, unit_amount: 100, currency: "EUR", tax_rate: 0 });
    const draft = await createInvoice(books, { customer: customer.id, lines: [{ product: product.id, quantity: 1 }] });
    await finalizeInvoice(books, draft.id);
    await createInvoice(books, { customer: customer.id, lines: [{ description: "Draft", quantity: 1, unit_amount: 5 }] });
  }
}

const live = () => ({ orgId: team.org.id, mode: "live" as const });

beforeEach(async () => {
  team = await createTeam("enterprise");
  await fillBooks();
});

describe("deleting all test data", () => {
  it("removes the test customers, products and invoices in one go, keeps live data and every key, and says what it removed", async () => {
    const liveBefore = JSON.stringify([await listCustomers(live(), { limit: 100 }), await listInvoices(live(), { limit: 100 })]);
    actAs(team.owner.id);
    const result = await deleteTestDataAction(null, form({ orgId: team.org.id }));
    expect(result).toEqual({ ok: true, data: { customers: 1, products: 1, invoices: 2 } });
    expect(await countTestData(getDb(), team.org.id)).toEqual({ customers: 0, products: 0, invoices: 0 });
    expect(JSON.stringify([await listCustomers(live(), { limit: 100 }), await listInvoices(live(), { limit: 100 })])).toBe(liveBefore);
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id))).toHaveLength(2);
    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "test_data.deleted")));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorUserId: team.owner.id, after: { customers: 1, products: 1, invoices: 2 } });
    // The test numbering starts again; the live one goes on.
    const test = { orgId: team.org.id, mode: "test" as const };
    const customer = await createCustomer(test, { name: "Again", currency: "EUR" });
    const again = await createInvoice(test, { customer: customer.id, lines: [{ description: "Run", quantity: 1, unit_amount: 1 }] });
    expect((await finalizeInvoice(test, again.id)).number).toBe("INV-000001");
  });

  it("deletes once and writes one entry when two owners ask at the same moment", async () => {
    actAs(team.owner.id);
    const results = await Promise.all([deleteTestDataAction(null, form({ orgId: team.org.id })), deleteTestDataAction(null, form({ orgId: team.org.id }))]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual({ ok: false, error: "There is no test data to delete." });
    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "test_data.deleted")));
    expect(entries).toHaveLength(1);
  });

  it.each(["admin", "member", "guest"] as Role[])("is refused to an %s, and changes nothing", async (role) => {
    const before = await orgFingerprint(team.org.id);
    actAs(team.byRole[role].id);
    expect(await deleteTestDataAction(null, form({ orgId: team.org.id }))).toEqual({
      ok: false,
      error: "Only owners can delete the organization's test data.",
    });
    expect(await countTestData(getDb(), team.org.id)).toEqual({ customers: 1, products: 1, invoices: 2 });
    expect(await orgFingerprint(team.org.id)).toBe(before);
  });

  it("is refused for another organization's id, which keeps its test data", async () => {
    const other = await createTeam("pro");
    actAs(other.owner.id);
    expect(await deleteTestDataAction(null, form({ orgId: team.org.id }))).toEqual({ ok: false, error: "Organization not found." });
    expect(await countTestData(getDb(), team.org.id)).toEqual({ customers: 1, products: 1, invoices: 2 });
  });
});
