import { hasSecondFactor } from "@/db/queries/two-factor";
import { IdentityConfirmationProvider, type ConfirmIdentityAction } from "@/components/identity-confirmation";
import { sudoModeSeconds } from "@/lib/auth/sudo";

/** Where sensitive changes can be made: sudo mode's question (SPEC §16) is asked for whatever is under it. */
export async function SudoModeBoundary({ userId, confirm, children }: { userId: string; confirm: ConfirmIdentityAction; children: React.ReactNode }) {
  return (
    <IdentityConfirmationProvider confirm={confirm} hasSecondFactor={await hasSecondFactor(userId)} sudoModeSeconds={sudoModeSeconds()}>
      {children}
    </IdentityConfirmationProvider>
  );
}
