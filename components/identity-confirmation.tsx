"use client";

import dynamic from "next/dynamic";
import { useCallback, useRef, useState, type ReactNode } from "react";
import { IdentityConfirmationContext, type AskForIdentity } from "@/components/identity-confirmation-context";
import type { SignInWays, SudoModeActions } from "@/components/identity-confirmation-dialog";
import type { SecondFactorMethods } from "@/components/second-factor-fields";

// The dialog, its form and the second factor's fields come with the first question, not with every
// page: most pages never ask it (docs/decisions/0063-shared-page-weight.md).
const IdentityConfirmationDialog = dynamic(() => import("@/components/identity-confirmation-dialog").then((module) => module.IdentityConfirmationDialog), {
  ssr: false,
});

/**
 * Where sudo mode's question can be asked: the dashboard's forms and buttons ask it through
 * useIdentityConfirmation, so any sensitive change the server refuses goes through once answered.
 */
export function IdentityConfirmationProvider({
  actions,
  secondFactors,
  signInWays,
  sudoModeSeconds,
  children,
}: {
  actions: SudoModeActions;
  secondFactors: SecondFactorMethods;
  signInWays: SignInWays;
  sudoModeSeconds: number;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(0);
  // Kept mounted once asked, so the dialog closes with its animation rather than vanishing.
  const [asked, setAsked] = useState(false);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const settle = useCallback((confirmed: boolean) => {
    answer.current?.(confirmed);
    answer.current = null;
    setAsking(0);
  }, []);
  const ask = useCallback<AskForIdentity>(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setAsked(true);
        setAsking((n) => n + 1);
      }),
    [],
  );
  return (
    <IdentityConfirmationContext.Provider value={ask}>
      {children}
      {asked ? (
        <IdentityConfirmationDialog
          open={asking > 0}
          asking={asking}
          onAnswer={settle}
          actions={actions}
          secondFactors={secondFactors}
          signInWays={signInWays}
          sudoModeSeconds={sudoModeSeconds}
        />
      ) : null}
    </IdentityConfirmationContext.Provider>
  );
}
