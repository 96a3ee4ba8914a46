import "server-only";
import type { z } from "zod";
import type { Plan } from "@/core/enums";
import { spreadMonthlyUsage } from "@/db/queries/monthly-usage";
import { lockOrganization, setPlan, setRateLimit } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { PLANS, plansWith } from "@/lib/plans/catalog";
import type { changePlanInput, rateLimitInput } from "@/lib/plans/input";

export async function changePlan({ plan }: z.output<typeof changePlanInput>, ctx: ActionContext): Promise<Change<{ plan: Plan }>> {
  const current = await lockOrganization(ctx.tx, ctx.orgId);
  if (current.plan === plan) throw new UserFacingError(`You are already on the ${PLANS[plan].label} plan.`);
  // A downgrade keeps every key (docs/features/plans.md): the new plan's limits apply from the next request.
  await setPlan(ctx.tx, ctx.orgId, plan, ctx.userId);
  // The month's calls so far count toward the new plan's quota.
  await spreadMonthlyUsage(ctx.tx, ctx.orgId, PLANS[plan].monthlyCalls);
  return {
    data: { plan },
    activity: { action: "plan.changed", target: { type: "organization", id: ctx.orgId, name: current.name }, before: { plan: current.plan }, after: { plan } },
  };
}

export async function setCustomRateLimit(
  { rateLimitPerMinute }: z.output<typeof rateLimitInput>,
  ctx: ActionContext,
): Promise<Change<{ rateLimitPerMinute: number }>> {
  const current = await lockOrganization(ctx.tx, ctx.orgId);
  if (!PLANS[current.plan].customRateLimit) {
    const plans = plansWith("customRateLimit");
    throw new UserFacingError(`A custom rate limit is part of the ${plans} plan. Switch to ${plans} first.`);
  }
  await setRateLimit(ctx.tx, ctx.orgId, rateLimitPerMinute);
  return {
    data: { rateLimitPerMinute },
    activity: {
      action: "rate_limit.changed",
      target: { type: "organization", id: ctx.orgId, name: current.name },
      before: { rateLimitPerMinute: current.rateLimitPerMinute },
      after: { rateLimitPerMinute },
    },
  };
}
