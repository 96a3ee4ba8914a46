import { signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { ssoConfirmAction } from "@/app/(auth)/signin/sso/actions";
import { markAlertsReadAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { beginPasskeyProofAction, confirmIdentityAction } from "@/app/settings/security/actions";

/**
 * The server actions the dashboard's shell wires in around every page (components do not import
 * app/): signing out, the bell, and sudo mode's question (docs/security.md#sudo-mode). The organization's layout and
 * the account settings' layout pass the same ones.
 */
export const SUDO_MODE_ACTIONS = { confirmIdentity: confirmIdentityAction, beginPasskeyProof: beginPasskeyProofAction, confirmWithSso: ssoConfirmAction };

export const DASHBOARD_ACTIONS = {
  signOut: { here: signOutAction, everywhere: signOutEverywhereAction },
  markAlertsRead: markAlertsReadAction,
  sudoMode: SUDO_MODE_ACTIONS,
};
