"use server";

import { z } from "zod";
import { getUser } from "@/db/queries/users";
import { accountAction, accountActionAfterCheck, accountActionWithSecondFactor, userAction } from "@/lib/action";
import { identityProofInput } from "@/lib/auth/identity-input";
import { confirmIdentity } from "@/lib/auth/sudo";
import { confirmTotpSetupInput, secondFactorProofInput } from "@/lib/auth/two-factor-input";
import { currentClient } from "@/lib/session";
import { addPasskeyInput, removePasskeyInput } from "@/lib/auth/passkey-input";
import { passkeyAssertionOptions, passkeyRegistrationOptions, verifyNewPasskey } from "@/lib/auth/passkeys";
import { addPasskey, beginTotpSetup, confirmTotpSetup, removePasskeyFactor, removeTotpFactor, renewRecoveryCodes } from "@/lib/auth/two-factor-setup";

/** Shows a new secret to scan; nothing changes for sign-in until a first code confirms it. */
export const beginTotpSetupAction = userAction(z.object({}), async (_input, { userId }) => {
  const user = await getUser(userId);
  return beginTotpSetup(userId, user?.email ?? userId);
});

/**
 * A new second factor answers sudo mode's question from then on, so adding one is itself a sudo-mode
 * change (as on GitHub): otherwise a stale session could add its holder's own app or passkey and
 * confirm every sensitive change with it.
 */
export const confirmTotpSetupAction = accountAction(
  confirmTotpSetupInput,
  async ({ code }, { userId, tx }) => ({
    data: { recoveryCodes: await confirmTotpSetup(tx, userId, code) },
    activity: { action: "two_factor.totp_added" },
  }),
  { sudo: true },
);

/** Turning two-factor off needs a second factor (docs/features/two-factor.md#turning-it-off), counted against the same throttle as sign-in's. */
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

/** Sudo mode's question answered (docs/security.md#sudo-mode): the password or a second factor again, throttled as sign-in is. */
export const confirmIdentityAction = userAction(identityProofInput, async (proof, session) => {
  await confirmIdentity(session, proof, (await currentClient()).ip);
  return { confirmed: true };
});

/** A challenge for a new passkey; nothing changes until the device's answer is added. */
export const beginPasskeySetupAction = userAction(z.object({}), (_input, session) => passkeyRegistrationOptions(session));

/** The device's new passkey, checked and kept; the first second factor also brings the recovery codes. A sudo-mode change, as adding an app is. */
export const addPasskeyAction = accountActionAfterCheck(
  addPasskeyInput,
  ({ credential }, session) => verifyNewPasskey(session, credential),
  async ({ name }, { userId, tx, checked }) => ({
    data: { recoveryCodes: await addPasskey(tx, userId, name, checked) },
    activity: { action: "two_factor.passkey_added", after: { name } },
  }),
  { sudo: true },
);

/** A challenge for a passkey to sign, where a second factor is asked for again (removing a factor, sudo mode). */
export const beginPasskeyProofAction = userAction(z.object({}), (_input, session) => passkeyAssertionOptions(session));

/** Removing a passkey needs a second factor, as turning two-factor off does (it may be the last one). */
export const removePasskeyAction = accountActionWithSecondFactor(removePasskeyInput, async ({ passkeyId }, { userId, tx }) => {
  const removed = await removePasskeyFactor(tx, userId, passkeyId);
  return { data: { removed: removed.name }, activity: { action: "two_factor.passkey_removed", before: { name: removed.name } } };
});
