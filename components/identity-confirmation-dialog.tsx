"use client";

import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import type { BeginPasskeyProofAction } from "@/components/passkey-ceremony";
import { SecondFactorFields, type SecondFactorMethods } from "@/components/second-factor-fields";
import { SsoConfirmation, type ConfirmWithSsoAction } from "@/components/sso-confirmation";
import { useActionForm, type FormActionFn } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

export type ConfirmIdentityAction = FormActionFn<{ confirmed: boolean }>;

/** The actions sudo mode's question calls: the answer's check, a passkey's challenge, and the identity provider's flow. */
export interface SudoModeActions {
  confirmIdentity: ConfirmIdentityAction;
  beginPasskeyProof: BeginPasskeyProofAction;
  confirmWithSso: ConfirmWithSsoAction;
}

/** How the person can answer besides a second factor: their password (one who joined through a provider may have none), and the provider that made this session. */
export interface SignInWays {
  password: boolean;
  sso: boolean;
}

type Method = "password" | "second-factor" | "sso";

/** "10 minutes", or seconds when the window is shorter than a minute. */
function inWords(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/**
 * Sudo mode's question (docs/security.md#sudo-mode), asked over whatever the person was doing: their password, or
 * their second factor when they have one. Open while `open`; `asking` counts the questions, so each
 * starts afresh. Loaded the first time it is asked (components/identity-confirmation.tsx).
 */
export function IdentityConfirmationDialog({
  open,
  asking,
  onAnswer,
  ...form
}: {
  open: boolean;
  asking: number;
  onAnswer: (confirmed: boolean) => void;
  actions: SudoModeActions;
  secondFactors: SecondFactorMethods;
  signInWays: SignInWays;
  sudoModeSeconds: number;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onAnswer(false)}>
      <DialogContent key={asking}>
        <IdentityForm {...form} onConfirmed={() => onAnswer(true)} />
      </DialogContent>
    </Dialog>
  );
}

const ASKED: Record<Method, string> = {
  password: "Enter your password",
  "second-factor": "Give your second factor",
  sso: "Sign in again at your identity provider",
};

function IdentityForm({
  actions,
  secondFactors,
  signInWays,
  sudoModeSeconds,
  onConfirmed,
}: {
  actions: SudoModeActions;
  secondFactors: SecondFactorMethods;
  signInWays: SignInWays;
  sudoModeSeconds: number;
  onConfirmed: () => void;
}) {
  const hasSecondFactor = secondFactors.totp || secondFactors.passkey;
  const [method, setMethod] = useState<Method>(signInWays.sso ? "sso" : signInWays.password || !hasSecondFactor ? "password" : "second-factor");
  const { pending, onSubmit, error, fieldErrors } = useActionForm(actions.confirmIdentity, onConfirmed);
  const fieldError = fieldErrors.password?.[0] ?? fieldErrors.code?.[0];
  const switchTo = (to: Method, label: string) => (
    <Button type="button" variant="link" className="h-auto px-0 text-sm" onClick={() => setMethod(to)}>
      {label}
    </Button>
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-primary" aria-hidden /> Confirm it&apos;s you
        </DialogTitle>
        <DialogDescription>
          This is a sensitive change. {ASKED[method]} to continue; you will not be asked again for {inWords(sudoModeSeconds)}.
        </DialogDescription>
      </DialogHeader>
      {error && !fieldError && <FormAlert>{error}</FormAlert>}
      {method === "sso" ? (
        <div className="space-y-2">
          <SsoConfirmation confirmWithSso={actions.confirmWithSso} />
          {signInWays.password && switchTo("password", "Use your password instead")}
        </div>
      ) : method === "password" ? (
        <div className="space-y-2">
          <input type="hidden" name="method" value="password" />
          <FormField label="Password" error={fieldErrors.password?.[0]}>
            <Input name="password" type="password" autoComplete="current-password" required autoFocus />
          </FormField>
          {hasSecondFactor && switchTo("second-factor", secondFactors.passkey ? "Use a passkey or a code instead" : "Use your authenticator app instead")}
          {signInWays.sso && switchTo("sso", "Use single sign-on instead")}
        </div>
      ) : (
        <div className="space-y-2">
          <SecondFactorFields methods={secondFactors} beginPasskey={actions.beginPasskeyProof} error={fieldErrors.code?.[0]} autoFocus />
          {signInWays.password && switchTo("password", "Use your password instead")}
          {signInWays.sso && switchTo("sso", "Use single sign-on instead")}
        </div>
      )}
      {method !== "sso" && <FormDialogFooter label="Confirm" pendingLabel="Confirming…" pending={pending} />}
    </form>
  );
}
