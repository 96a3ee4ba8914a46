import { z } from "zod";
import { orgIdSchema } from "@/lib/input-rules";

/** SPEC §16: "Require two-factor for everyone", as the Members page's switch sends it. */
export const twoFactorRequirementInput = z.object({
  orgId: orgIdSchema,
  required: z
    .preprocess((value) => value ?? "off", z.enum(["on", "off", "true", "false"], { error: "Say whether two-factor is required." }))
    .transform((value) => value === "on" || value === "true"),
});
