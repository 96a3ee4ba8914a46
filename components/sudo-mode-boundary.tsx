import { secondFactorMethods } from "@/db/queries/two-factor";
import { IdentityConfirmationProvider } from "@/components/identity-confirmation";
import type { SudoModeActions } from "@/components/identity-confirmation-dialog";
import { sudoModeSeconds } from "@/lib/auth/sudo";

/** Where sensitive changes can be made: sudo mode's question (docs/security.md#sudo-mode) is asked for whatever is under it. */
export async function SudoModeBoundary({ userId, actions, children }: { userId: string; actions: SudoModeActions; children: React.ReactNode }) {
  return (
    <IdentityConfirmationProvider actions={actions} secondFactors={await secondFactorMethods(userId)} sudoModeSeconds={sudoModeSeconds()}>
      {children}
    </IdentityConfirmationProvider>
  );
}
