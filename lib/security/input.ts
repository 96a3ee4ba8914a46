import { z } from "zod";
import { LEAKED_KEY_RESPONSE_VALUES } from "@/core/enums";
import { onOffSchema, orgIdSchema } from "@/lib/input-rules";

/** "Require two-factor for everyone", as the Members page's switch sends it. */
export const twoFactorRequirementInput = z.object({
  orgId: orgIdSchema,
  required: onOffSchema("Say whether two-factor is required."),
});

/** What a key a secret scanner reports gets, as the key policy page's choice sends it. */
export const leakedKeyResponseInput = z.object({
  orgId: orgIdSchema,
  response: z.enum(LEAKED_KEY_RESPONSE_VALUES, { error: "Choose to revoke leaked keys at once or to be alerted only." }),
});
