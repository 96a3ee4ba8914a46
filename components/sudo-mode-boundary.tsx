import { secondFactorMethods } from "@/db/queries/two-factor";
import { IdentityConfirmationProvider, type ConfirmIdentityAction } from "@/components/identity-confirmation";
import type { BeginPasskeyProofAction } from "@/components/passkey-ceremony";
import { sudoModeSeconds } from "@/lib/auth/sudo";

/** The actions sudo mode's question calls: the answer's check, and a passkey's challenge. */
export interface SudoModeActions {
  confirmIdentity: ConfirmIdentityAction;
  beginPasskeyProof: BeginPasskeyProofAction;
}

/** Where sensitive changes can be made: sudo mode's question (docs/security.md#sudo-mode) is asked for whatever is under it. */
export async function SudoModeBoundary({ userId, actions, children }: { userId: string; actions: SudoModeActions; children: React.ReactNode }) {
  return (
    <IdentityConfirmationProvider actions={actions} secondFactors={await secondFactorMethods(userId)} sudoModeSeconds={sudoModeSeconds()}>
      {children}
    </IdentityConfirmationProvider>
  );
}
