"use client";

import { Fingerprint } from "lucide-react";
import { useRef, useState } from "react";
import { runPasskeyCeremony, type BeginPasskeyProofAction } from "@/components/passkey-ceremony";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

export type SecondFactorMethod = "totp" | "passkey" | "recovery";

/** Which second factors the person has: each form offers those, and recovery codes always. */
export interface SecondFactorMethods {
  totp: boolean;
  passkey: boolean;
}

const SWITCH_LABELS: Record<SecondFactorMethod, string> = {
  totp: "Use your authenticator app instead",
  passkey: "Use a passkey instead",
  recovery: "Use a recovery code instead",
};

/** The ways a person can give their second factor, the one offered first leading: a passkey, the app, a recovery code. */
export function availableMethods(methods: SecondFactorMethods, passkeysAsked: boolean): SecondFactorMethod[] {
  return [...(methods.passkey && passkeysAsked ? (["passkey"] as const) : []), ...(methods.totp ? (["totp"] as const) : []), "recovery"];
}

/**
 * The fields that ask for a second factor (docs/features/two-factor.md): a passkey, the code from the authenticator
 * app, or, one click away, a recovery code. The form sends `method` and `code`, or `method` and
 * `credential` (a passkey's signature, which submits the form by itself once the device answers).
 */
export function SecondFactorFields({
  methods,
  beginPasskey,
  error,
  autoFocus = false,
  onMethodChange,
}: {
  methods: SecondFactorMethods;
  beginPasskey?: BeginPasskeyProofAction;
  error?: string;
  autoFocus?: boolean;
  /** The form's own submit button has nothing to send while a passkey is asked for: it sends itself. */
  onMethodChange?: (method: SecondFactorMethod) => void;
}) {
  const available = availableMethods(methods, Boolean(beginPasskey));
  const [method, setChosen] = useState<SecondFactorMethod>(available[0]!);
  const setMethod = (next: SecondFactorMethod) => {
    setChosen(next);
    onMethodChange?.(next);
  };
  return (
    <div className="space-y-2">
      <input type="hidden" name="method" value={method} />
      {method === "passkey" && beginPasskey ? (
        <PasskeyProof begin={beginPasskey} error={error} />
      ) : method === "totp" ? (
        <FormField key="totp" label="Authentication code" error={error} description="The 6-digit code your authenticator app shows now.">
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            placeholder="123456"
            className="font-mono tracking-widest"
            autoFocus={autoFocus}
            required
          />
        </FormField>
      ) : (
        <FormField key="recovery" label="Recovery code" error={error} description="One of the codes you saved when you set up two-factor. Each works once.">
          <Input
            name="code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={32}
            placeholder="xxxxx-xxxxx"
            className="font-mono"
            autoFocus
            required
          />
        </FormField>
      )}
      <div className="flex flex-col items-start">
        {available
          .filter((other) => other !== method)
          .map((other) => (
            <Button key={other} type="button" variant="link" className="h-auto px-0 text-sm" onClick={() => setMethod(other)}>
              {SWITCH_LABELS[other]}
            </Button>
          ))}
      </div>
    </div>
  );
}

/** A passkey as the second factor: the device signs the server's challenge, and the form goes with the signature. */
function PasskeyProof({ begin, error }: { begin: BeginPasskeyProofAction; error?: string }) {
  const credential = useRef<HTMLInputElement>(null);
  const [waiting, setWaiting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const sign = async () => {
    setWaiting(true);
    setFailure(null);
    const outcome = await runPasskeyCeremony("sign", begin);
    setWaiting(false);
    if ("error" in outcome) return setFailure(outcome.error);
    credential.current!.value = outcome.credential;
    credential.current!.form?.requestSubmit();
  };
  const shown = failure ?? error;
  return (
    <div className="space-y-2">
      <input ref={credential} type="hidden" name="credential" defaultValue="" />
      <p className="text-sm text-muted-foreground">
        Your browser asks your device (a security key, Touch ID, Windows Hello or your phone) to confirm it is you.
      </p>
      <Button type="button" variant="outline" className="w-full" onClick={sign} disabled={waiting}>
        <Fingerprint className="size-4" aria-hidden /> {waiting ? "Waiting for your passkey…" : "Use your passkey"}
      </Button>
      {shown ? (
        <p role="alert" className="text-sm text-destructive">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
