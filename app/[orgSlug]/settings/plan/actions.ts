"use server";

import { orgAction } from "@/lib/action";
import { changePlan, setCustomRateLimit } from "@/lib/plans/changes";
import { changePlanInput, rateLimitInput } from "@/lib/plans/input";

// The plan's changes as the dashboard calls them: their input, who may, sudo mode, and the rule in lib/plans/changes.ts.
export const changePlanAction = orgAction(changePlanInput, "plan.manage", changePlan, { sudo: true });
export const setRateLimitAction = orgAction(rateLimitInput, "plan.manage", setCustomRateLimit, { sudo: true });
