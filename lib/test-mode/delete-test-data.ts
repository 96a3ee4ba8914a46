import "server-only";
import { z } from "zod";
import { deleteTestData } from "@/db/queries/test-data";
import { lockOrganization } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { orgIdSchema } from "@/lib/input-rules";
import type { TestDataCounts } from "@/db/queries/test-data";

export const deleteTestDataInput = z.object({ orgId: orgIdSchema });

/**
 * "Delete all test data" (docs/features/test-mode.md#delete-all-test-data): the organization's
 * test customers, products and invoices go in one transaction, under the organization's row lock
 * so two owners clicking at once delete once and write one entry. Keys and traffic stay.
 */
export async function deleteAllTestData(_input: z.output<typeof deleteTestDataInput>, ctx: ActionContext): Promise<Change<TestDataCounts>> {
  const { name } = await lockOrganization(ctx.tx, ctx.orgId);
  const deleted = await deleteTestData(ctx.tx, ctx.orgId);
  if (deleted.customers + deleted.products + deleted.invoices === 0) throw new UserFacingError("There is no test data to delete.");
  return {
    data: deleted,
    activity: { action: "test_data.deleted", target: { type: "organization", id: ctx.orgId, name }, after: { ...deleted } },
  };
}
