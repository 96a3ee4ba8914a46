"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import { DialogLoading } from "@/components/dialog-loading";
import { FormAlert } from "@/components/form-alert";
import { FormDialog } from "@/components/form-dialog";
import { onDemand } from "@/components/on-demand";
import type { SecondFactorMethods } from "@/components/second-factor-fields";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { CardContent, CardFooter } from "@/components/ui/card";
import type { TotpSetupDto } from "@/lib/auth/two-factor-setup";
import { beginTotpSetupAction } from "./actions";
import { RecoveryCodesShownOnce } from "./recovery-codes-shown-once";
import type { RemoveTotpFormProps } from "./remove-totp-form";
import type { TotpSetupStepsProps } from "./totp-setup-steps";

const TotpSetupSteps = onDemand<TotpSetupStepsProps>(() => import("./totp-setup-steps").then((module) => module.TotpSetupSteps));
const RemoveTotpForm = onDemand<RemoveTotpFormProps>(() => import("./remove-totp-form").then((module) => module.RemoveTotpForm), <DialogLoading />);

/** The authenticator app card's body: set up (scan, confirm, then the recovery codes once), or turn off. */
export function AuthenticatorAppControls({ on, methods }: { on: boolean; methods: SecondFactorMethods }) {
  const [setup, setSetup] = useState<TotpSetupDto | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const begin = useConfirmAction(beginTotpSetupAction, { onSuccess: setSetup });
  if (codes) return <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="Two-factor authentication is on" />;
  if (setup) {
    return (
      <CardContent>
        <TotpSetupSteps
          setup={setup}
          onConfirmed={(recoveryCodes) => {
            setSetup(null);
            if (recoveryCodes) setCodes(recoveryCodes);
            else toast.success("Authenticator app added", { description: "Sign-in can now ask for its code as well as your passkey." });
          }}
          onCancel={() => setSetup(null)}
        />
      </CardContent>
    );
  }
  return (
    <CardFooter className="flex-wrap gap-2 border-t">
      {begin.error ? <FormAlert>{begin.error}</FormAlert> : null}
      {on ? (
        <FormDialog
          trigger={
            <Button variant="outline" className="text-destructive" {...RemoveTotpForm.prefetchHandlers}>
              Turn off…
            </Button>
          }
          form={(close) => <RemoveTotpForm close={close} methods={methods} />}
        />
      ) : (
        <Button
          onClick={() => {
            TotpSetupSteps.prefetch();
            begin.run({});
          }}
          disabled={begin.pending}
          {...TotpSetupSteps.prefetchHandlers}
        >
          {begin.pending ? "Preparing…" : "Set up authenticator app"}
        </Button>
      )}
    </CardFooter>
  );
}
