"use server";

import { z } from "zod";
import { getUser } from "@/db/queries/users";
import { accountAction, accountActionWithSecondFactor, userAction } from "@/lib/action";
import { confirmTotpSetupInput, secondFactorProofInput } from "@/lib/auth/two-factor-input";
import { beginTotpSetup, confirmTotpSetup, removeTotpFactor, renewRecoveryCodes } from "@/lib/auth/two-factor-setup";

/** Shows a new secret to scan; nothing changes for sign-in until a first code confirms it. */
export const beginTotpSetupAction = userAction(z.object({}), async (_input, { userId }) => {
  const user = await getUser(userId);
  return beginTotpSetup(userId, user?.email ?? userId);
});

export const confirmTotpSetupAction = accountAction(confirmTotpSetupInput, async ({ code }, { userId, tx }) => ({
  data: { recoveryCodes: await confirmTotpSetup(tx, userId, code) },
  activity: { action: "two_factor.totp_added" },
}));

/** Turning two-factor off needs a second factor (SPEC §16), counted against the same throttle as sign-in's. */
export const removeTotpAction = accountActionWithSecondFactor(secondFactorProofInput, async (_proof, { userId, tx }) => {
  await removeTotpFactor(tx, userId);
  return { data: { removed: true }, activity: { action: "two_factor.totp_removed" } };
});

export const renewRecoveryCodesAction = accountAction(z.object({}), async (_input, { userId, tx }) => ({
  data: { recoveryCodes: await renewRecoveryCodes(tx, userId) },
  activity: { action: "two_factor.recovery_codes_renewed" },
}));
