import "server-only";
import type { z } from "zod";
import { lockSecuritySettings, setSecuritySettings } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { LEAKED_KEY_RESPONSES } from "@/lib/keys/leaked-key-response-labels";
import type { leakedKeyResponseInput } from "./input";

/** Owners choose whether a key a secret scanner reports is revoked at once (the default) or only reported. */
export async function changeLeakedKeyResponse(
  { response }: z.output<typeof leakedKeyResponseInput>,
  ctx: ActionContext,
): Promise<Change<{ response: typeof response }>> {
  const before = await lockSecuritySettings(ctx.tx, ctx.orgId);
  if (before.leakedKeyResponse === response) throw new UserFacingError(`Leaked keys are already set to “${LEAKED_KEY_RESPONSES[response]}”.`);
  await setSecuritySettings(ctx.tx, ctx.orgId, { leakedKeyResponse: response });
  return {
    data: { response },
    activity: {
      action: "leaked_key_response.changed",
      target: { type: "organization", id: ctx.orgId, name: before.name },
      before: { response: before.leakedKeyResponse },
      after: { response },
    },
  };
}
