"use client";

import { useState, type ReactNode } from "react";
import { DialogLoading } from "@/components/dialog-loading";
import { FormDialog } from "@/components/form-dialog";
import { onDemand } from "@/components/on-demand";
import type { SecondFactorMethods } from "@/components/second-factor-fields";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import type { AddPasskeyFormProps } from "./add-passkey-form";
import { RecoveryCodesShownOnce } from "./recovery-codes-shown-once";
import type { PasskeyRow, RemovePasskeyFormProps } from "./remove-passkey-form";

const AddPasskeyForm = onDemand<AddPasskeyFormProps>(() => import("./add-passkey-form").then((module) => module.AddPasskeyForm), <DialogLoading />);
const RemovePasskeyForm = onDemand<RemovePasskeyFormProps>(() => import("./remove-passkey-form").then((module) => module.RemovePasskeyForm), <DialogLoading />);

/**
 * The passkeys card's body: the server-rendered list (`children`) and "Add a passkey", or, once the
 * first passkey turned two-factor on, the recovery codes it made, shown once.
 */
export function PasskeysControls({ hasPasskeys, children }: { hasPasskeys: boolean; children: ReactNode }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="Two-factor authentication is on" />;
  return (
    <>
      {children}
      <CardFooter className="border-t">
        <FormDialog
          trigger={
            <Button variant={hasPasskeys ? "outline" : "default"} {...AddPasskeyForm.prefetchHandlers}>
              Add a passkey
            </Button>
          }
          form={(close) => <AddPasskeyForm close={close} onRecoveryCodes={setCodes} />}
        />
      </CardFooter>
    </>
  );
}

export function RemovePasskeyDialog({ passkey, methods }: { passkey: PasskeyRow; methods: SecondFactorMethods }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm" className="text-destructive" aria-label={`Remove ${passkey.name}`} {...RemovePasskeyForm.prefetchHandlers}>
          Remove
        </Button>
      }
      form={(close) => <RemovePasskeyForm passkey={passkey} methods={methods} close={close} />}
    />
  );
}
