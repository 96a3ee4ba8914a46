"use server";

import { eq } from "drizzle-orm";
import { organizations } from "@/db/schema";
import { orgAction } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { PLANS } from "@/lib/plans";
import { changePlanInput, rateLimitInput } from "@/lib/validation";
import { lockOrganization } from "@/db/queries/api-keys";

export const changePlanAction = orgAction(changePlanInput, "plan.manage", async ({ plan }, ctx) => {
  const current = await lockOrganization(ctx.tx, ctx.orgId);
  if (current.plan === plan) throw new UserFacingError(`You are already on the ${PLANS[plan].label} plan.`);
  // A downgrade keeps every key (SPEC §2): the new plan's limits apply from the next request.
  await ctx.tx.update(organizations).set({ plan, planChangedAt: new Date(), planChangedBy: ctx.userId }).where(eq(organizations.id, ctx.orgId));
  await ctx.record("plan.changed", ctx.orgId, { from: current.plan, to: plan });
  return { plan };
});

export const setRateLimitAction = orgAction(rateLimitInput, "plan.manage", async ({ rateLimitPerMinute }, ctx) => {
  const current = await lockOrganization(ctx.tx, ctx.orgId);
  if (current.plan !== "enterprise") throw new UserFacingError("A custom rate limit is part of the Enterprise plan. Switch to Enterprise first.");
  await ctx.tx.update(organizations).set({ rateLimitPerMinute }).where(eq(organizations.id, ctx.orgId));
  await ctx.record("rate_limit.changed", ctx.orgId, { rateLimitPerMinute });
  return { rateLimitPerMinute };
});
