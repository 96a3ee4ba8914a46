"use server";

import { z } from "zod";
import { getUser } from "@/db/queries/users";
import { accountAction, accountActionWithSecondFactor, userAction } from "@/lib/action";
import { identityProofInput } from "@/lib/auth/identity-input";
import { confirmIdentity } from "@/lib/auth/sudo";
import { confirmTotpSetupInput, secondFactorProofInput } from "@/lib/auth/two-factor-input";
import { currentClient } from "@/lib/session";
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

/** New codes replace the old ones, which a thief who saw the page could otherwise read: a sudo-mode change, as on GitHub. */
export const renewRecoveryCodesAction = accountAction(
  z.object({}),
  async (_input, { userId, tx }) => ({
    data: { recoveryCodes: await renewRecoveryCodes(tx, userId) },
    activity: { action: "two_factor.recovery_codes_renewed" },
  }),
  { sudo: true },
);

/** Sudo mode's question answered (SPEC §16): the password or a second factor again, throttled as sign-in is. */
export const confirmIdentityAction = userAction(identityProofInput, async (proof, session) => {
  await confirmIdentity(session, proof, (await currentClient()).ip);
  return { confirmed: true };
});
