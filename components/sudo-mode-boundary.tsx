import { identityProofMethods } from "@/db/queries/two-factor";
import { IdentityConfirmationProvider } from "@/components/identity-confirmation";
import type { SudoModeActions } from "@/components/identity-confirmation-dialog";
import { sudoModeSeconds } from "@/lib/auth/sudo";
import { currentSession } from "@/lib/session";

/**
 * Where sensitive changes can be made: sudo mode's question (docs/security.md#sudo-mode) is asked for
 * whatever is under it, by the ways this person and session can answer it: a session an
 * organization's identity provider made answers at the provider (docs/features/sso.md#sudo-mode-through-the-provider).
 */
export async function SudoModeBoundary({ userId, actions, children }: { userId: string; actions: SudoModeActions; children: React.ReactNode }) {
  const [{ password, ...secondFactors }, session] = await Promise.all([identityProofMethods(userId), currentSession()]);
  return (
    <IdentityConfirmationProvider
      actions={actions}
      secondFactors={secondFactors}
      signInWays={{ password, sso: Boolean(session?.ssoOrgId) }}
      sudoModeSeconds={sudoModeSeconds()}
    >
      {children}
    </IdentityConfirmationProvider>
  );
}
