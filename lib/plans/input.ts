import { z } from "zod";
import { PLAN_VALUES } from "@/core/enums";
import { orgIdSchema } from "@/lib/input-rules";
import { ENTERPRISE_RATE_LIMIT_RANGE } from "./catalog";

const planSchema = z.enum(PLAN_VALUES, { error: "Choose one of the plans." });
export const changePlanInput = z.object({ orgId: orgIdSchema, plan: planSchema });
export const rateLimitInput = z.object({
  orgId: orgIdSchema,
  rateLimitPerMinute: z.coerce
    .number({ error: "Enter a number." })
    .int("Enter a whole number.")
    .min(ENTERPRISE_RATE_LIMIT_RANGE.min, `Use at least ${ENTERPRISE_RATE_LIMIT_RANGE.min} request per minute.`)
    .max(ENTERPRISE_RATE_LIMIT_RANGE.max, `Use at most ${ENTERPRISE_RATE_LIMIT_RANGE.max.toLocaleString("en-US")} requests per minute.`),
});
