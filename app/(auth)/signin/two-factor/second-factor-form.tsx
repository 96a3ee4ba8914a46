"use client";

import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { availableMethods, SecondFactorFields, type SecondFactorMethods } from "@/components/second-factor-fields";
import { useActionForm } from "@/components/use-action-form";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { beginPasskeySignInAction, secondFactorSignInAction, signOutAction } from "../../actions";
import { FormLevelError } from "../../credential-fields";

export function SecondFactorForm({ callbackUrl, methods }: { callbackUrl: string; methods: SecondFactorMethods }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(secondFactorSignInAction);
  const [method, setMethod] = useState(availableMethods(methods, true)[0]);
  const signOut = useConfirmAction(signOutAction);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          <ShieldCheck className="size-5 text-primary" aria-hidden /> Two-factor authentication
        </CardTitle>
        <CardDescription>Your password was right. Confirm it is you with your second factor.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="space-y-4">
          <FormLevelError error={error} fieldErrors={fieldErrors} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <SecondFactorFields methods={methods} beginPasskey={beginPasskeySignInAction} error={fieldErrors.code?.[0]} autoFocus onMethodChange={setMethod} />
        </CardContent>
        <CardFooter className="mt-2 flex flex-col gap-3">
          {method === "passkey" ? (
            pending ? (
              <p className="text-sm text-muted-foreground">Verifying…</p>
            ) : null
          ) : (
            <Button type="submit" className="w-full" disabled={pending}>
              {pending ? "Verifying…" : "Verify"}
            </Button>
          )}
          <Button type="button" variant="ghost" size="sm" className="text-muted-foreground" disabled={signOut.pending} onClick={() => signOut.run({})}>
            Cancel and sign in as someone else
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
