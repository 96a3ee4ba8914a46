import "server-only";
import type { z } from "zod";
import { lockOrganization, setKeyPolicy } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import type { KeyPolicy } from "@/lib/keys/policy";
import type { keyPolicyInput } from "@/lib/keys/input";

/** The key policy applies to keys created or rolled from now on; existing keys are only marked. */
export async function changeKeyPolicy({ maxLifetimeDays, expiryRequired }: z.output<typeof keyPolicyInput>, ctx: ActionContext): Promise<Change<KeyPolicy>> {
  const { name, keyPolicy: before } = await lockOrganization(ctx.tx, ctx.orgId);
  const after: KeyPolicy = { maxLifetimeDays, expiryRequired };
  if (before.maxLifetimeDays === after.maxLifetimeDays && before.expiryRequired === after.expiryRequired) {
    throw new UserFacingError("The key policy already says this: nothing to save.");
  }
  await setKeyPolicy(ctx.tx, ctx.orgId, after);
  // The entry names what changed, as "Maximum lifetime: No maximum → 90 days".
  const changed = (Object.keys(after) as (keyof KeyPolicy)[]).filter((field) => before[field] !== after[field]);
  return {
    data: after,
    activity: {
      action: "key_policy.changed",
      target: { type: "organization", id: ctx.orgId, name },
      before: Object.fromEntries(changed.map((field) => [field, before[field]])),
      after: Object.fromEntries(changed.map((field) => [field, after[field]])),
    },
  };
}
