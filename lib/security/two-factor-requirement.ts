import "server-only";
import type { z } from "zod";
import { lockSecuritySettings, setSecuritySettings } from "@/db/queries/organizations";
import { hasSecondFactor } from "@/db/queries/two-factor";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import type { twoFactorRequirementInput } from "./input";

/**
 * "Require two-factor for everyone" (owners). An owner without two-factor cannot turn it
 * on: they would lock themselves out with everyone else. From the next request, members without it
 * reach nothing of the organization until they set it up (lib/org-access.ts, lib/action.ts).
 */
export async function changeTwoFactorRequirement(
  { required }: z.output<typeof twoFactorRequirementInput>,
  ctx: ActionContext,
): Promise<Change<{ required: boolean }>> {
  const before = await lockSecuritySettings(ctx.tx, ctx.orgId);
  if (before.requireTwoFactor === required)
    throw new UserFacingError(required ? "Two-factor is already required for everyone." : "Two-factor is already not required.");
  if (required && !(await hasSecondFactor(ctx.userId, ctx.tx))) {
    throw new UserFacingError("Set up two-factor authentication for your own account first, under Security: requiring it would otherwise lock you out too.");
  }
  await setSecuritySettings(ctx.tx, ctx.orgId, { requireTwoFactor: required });
  return {
    data: { required },
    activity: {
      action: "two_factor.requirement_changed",
      target: { type: "organization", id: ctx.orgId, name: before.name },
      before: { required: before.requireTwoFactor },
      after: { required },
    },
  };
}
