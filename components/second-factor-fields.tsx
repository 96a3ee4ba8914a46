"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

export type SecondFactorMethod = "totp" | "recovery";

/**
 * The fields that ask for a second factor (SPEC §16): the code from the authenticator app, or,
 * one click away, a recovery code. The form sends `method` and `code`.
 */
export function SecondFactorFields({ error, autoFocus = false }: { error?: string; autoFocus?: boolean }) {
  const [method, setMethod] = useState<SecondFactorMethod>("totp");
  return (
    <div className="space-y-2">
      <input type="hidden" name="method" value={method} />
      {method === "totp" ? (
        <FormField key="totp" label="Authentication code" error={error} description="The 6-digit code your authenticator app shows now.">
          <Input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} placeholder="123456" className="font-mono tracking-widest" autoFocus={autoFocus} required />
        </FormField>
      ) : (
        <FormField key="recovery" label="Recovery code" error={error} description="One of the codes you saved when you set up two-factor. Each works once.">
          <Input name="code" autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={32} placeholder="xxxxx-xxxxx" className="font-mono" autoFocus required />
        </FormField>
      )}
      <Button type="button" variant="link" className="h-auto px-0 text-sm" onClick={() => setMethod(method === "totp" ? "recovery" : "totp")}>
        {method === "totp" ? "Use a recovery code instead" : "Use your authenticator app instead"}
      </Button>
    </div>
  );
}
