"use client";

import { Download, Fingerprint, KeyRound, Smartphone, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmFooter } from "@/components/confirm-footer";
import { CopyButton } from "@/components/copy-button";
import { FormAlert } from "@/components/form-alert";
import { FormDialog, FormDialogFooter } from "@/components/form-dialog";
import { RelativeTime } from "@/components/relative-time";
import { runPasskeyCeremony } from "@/components/passkey-ceremony";
import { SecondFactorFields, type SecondFactorMethods } from "@/components/second-factor-fields";
import { useActionForm } from "@/components/use-action-form";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { TotpSetupDto } from "@/lib/auth/two-factor-setup";
import { PASSKEY_NAME_MAX } from "@/lib/auth/passkey-input";
import {
  addPasskeyAction,
  beginPasskeyProofAction,
  beginPasskeySetupAction,
  beginTotpSetupAction,
  confirmTotpSetupAction,
  removePasskeyAction,
  removeTotpAction,
  renewRecoveryCodesAction,
} from "./actions";

function StatusBadge({ on }: { on: boolean }) {
  return on ? <Badge variant="success">On</Badge> : <Badge variant="outline">Off</Badge>;
}

/** The setup key as authenticator apps print it: groups of four, easier to type by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * New recovery codes, shown once: copy them, download them as a text file, then say they are
 * saved. Nothing brings them back.
 */
function RecoveryCodesShownOnce({ codes, onDone, doneMessage }: { codes: string[]; onDone: () => void; doneMessage: string }) {
  const text = `Invoicing recovery codes\n\n${codes.join("\n")}\n\nEach code works once, in place of a code from your authenticator app.\n`;
  const download = () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = "invoicing-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <CardContent className="space-y-4">
      <Alert variant="warning">
        <TriangleAlert className="size-4" aria-hidden />
        <AlertTitle>Save your recovery codes now</AlertTitle>
        <AlertDescription>
          <p>They are shown this once. If you lose your phone, each code signs you in once in place of a code from the app.</p>
        </AlertDescription>
      </Alert>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-x-6 gap-y-1.5 rounded-md border bg-muted/40 p-4 font-mono text-sm sm:grid-cols-5 sm:gap-x-4">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={codes.join("\n")} label="Copy codes" showLabel size="sm" />
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <Download className="size-4" aria-hidden /> Download
        </Button>
        <Button
          type="button"
          size="sm"
          className="sm:ml-auto"
          onClick={() => {
            onDone();
            toast.success(doneMessage);
          }}
        >
          I have saved them
        </Button>
      </div>
    </CardContent>
  );
}

/** Scan, then confirm with the first code: only then does sign-in start asking for one. */
function TotpSetupSteps({ setup, onConfirmed, onCancel }: { setup: TotpSetupDto; onConfirmed: (codes: string[] | null) => void; onCancel: () => void }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(confirmTotpSetupAction, (data) => onConfirmed(data.recoveryCodes));
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <ol className="space-y-6">
        <li className="space-y-3">
          <p className="text-sm font-medium">1. Scan this QR code with your authenticator app</p>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
            {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG made on the server, not an image to optimize */}
            <img
              src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrCodeSvg)}`}
              alt="QR code to add this account to an authenticator app"
              width={176}
              height={176}
              className="size-44 shrink-0 rounded-md border bg-white p-1"
            />
            <div className="min-w-0 space-y-2 text-sm">
              <p className="text-muted-foreground">Can&apos;t scan it? Enter this setup key in the app instead:</p>
              <div className="flex items-center gap-2">
                <code aria-label="Setup key" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">
                  {grouped(setup.secret)}
                </code>
                <CopyButton value={setup.secret} label="Copy setup key" />
              </div>
            </div>
          </div>
        </li>
        <li className="space-y-3">
          <p className="text-sm font-medium">2. Enter the code the app shows</p>
          {error && !fieldErrors.code ? <FormAlert>{error}</FormAlert> : null}
          <FormField label="Authentication code" error={fieldErrors.code?.[0]} className="max-w-xs">
            <Input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} placeholder="123456" className="font-mono tracking-widest" required />
          </FormField>
        </li>
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Checking…" : "Verify and turn on"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RemoveTotpForm({ close, methods }: { close: () => void; methods: SecondFactorMethods }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(removeTotpAction, () => {
    close();
    toast.success("Two-factor authentication is off", { description: "Sign-in asks for your password only. Your recovery codes no longer work." });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Turn off two-factor authentication?</DialogTitle>
        <DialogDescription>Your password alone will sign you in, and your recovery codes stop working. Confirm with a code first.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.code ? <FormAlert>{error}</FormAlert> : null}
      <SecondFactorFields methods={methods} beginPasskey={beginPasskeyProofAction} error={fieldErrors.code?.[0]} autoFocus />
      <FormDialogFooter label="Turn off" pendingLabel="Turning off…" pending={pending} variant="destructive" />
    </form>
  );
}

export function AuthenticatorAppCard({ addedAt, methods }: { addedAt: string | null; methods: SecondFactorMethods }) {
  const [setup, setSetup] = useState<TotpSetupDto | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const begin = useConfirmAction(beginTotpSetupAction, { onSuccess: setSetup });
  const on = addedAt !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Smartphone className="size-4 text-primary" aria-hidden /> Authenticator app <StatusBadge on={on} />
        </CardTitle>
        <CardDescription>
          {on ? (
            <>
              Added <RelativeTime value={addedAt} />. Sign-in asks for the 6-digit code it shows.
            </>
          ) : (
            "Use an app such as 1Password, Google Authenticator, Microsoft Authenticator or Authy to get a new sign-in code every 30 seconds."
          )}
        </CardDescription>
      </CardHeader>
      {codes ? (
        <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="Two-factor authentication is on" />
      ) : setup ? (
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
      ) : (
        <CardFooter className="flex-wrap gap-2 border-t">
          {begin.error ? <FormAlert>{begin.error}</FormAlert> : null}
          {on ? (
            <FormDialog
              trigger={
                <Button variant="outline" className="text-destructive">
                  Turn off…
                </Button>
              }
              form={(close) => <RemoveTotpForm close={close} methods={methods} />}
            />
          ) : (
            <Button onClick={() => begin.run({})} disabled={begin.pending}>
              {begin.pending ? "Preparing…" : "Set up authenticator app"}
            </Button>
          )}
        </CardFooter>
      )}
    </Card>
  );
}

export function RecoveryCodesCard({ enabled, left, total }: { enabled: boolean; left: number; total: number }) {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const renew = useConfirmAction(renewRecoveryCodesAction, {
    onSuccess: (data) => {
      setOpen(false);
      setCodes(data.recoveryCodes);
    },
  });
  const low = enabled && left <= 3;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRound className="size-4 text-primary" aria-hidden /> Recovery codes
          {enabled ? <Badge variant={low ? "warning" : "outline"}>{`${left} of ${total} left`}</Badge> : null}
        </CardTitle>
        <CardDescription>
          {enabled
            ? "Each code signs you in once if you lose your phone. Renewing makes ten new codes and ends the old ones."
            : "Recovery codes come with your first authenticator app or passkey: ten single-use codes to sign in with if you lose your device."}
        </CardDescription>
      </CardHeader>
      {codes ? (
        <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="New recovery codes saved" />
      ) : enabled ? (
        <CardFooter className="border-t">
          <AlertDialog
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              renew.clearError();
            }}
          >
            <AlertDialogTrigger asChild>
              <Button variant="outline">Renew codes…</Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Renew your recovery codes?</AlertDialogTitle>
                <AlertDialogDescription>Your {left} unused codes stop working at once. You get ten new ones, shown once.</AlertDialogDescription>
              </AlertDialogHeader>
              <ConfirmFooter label="Renew codes" pendingLabel="Renewing…" pending={renew.pending} error={renew.error} variant="default" onConfirm={() => renew.run({})} />
            </AlertDialogContent>
          </AlertDialog>
        </CardFooter>
      ) : null}
    </Card>
  );
}

export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Names the passkey, then has the browser make it on the person's device; the server checks and keeps it. */
function AddPasskeyForm({ close, onRecoveryCodes }: { close: () => void; onRecoveryCodes: (codes: string[]) => void }) {
  const [name, setName] = useState("");
  const [waiting, setWaiting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const add = useConfirmAction(addPasskeyAction, {
    onSuccess: (data) => {
      close();
      if (data.recoveryCodes) onRecoveryCodes(data.recoveryCodes);
      toast.success("Passkey added", { description: "Sign-in can now ask your device instead of a code." });
    },
  });
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    setWaiting(true);
    const outcome = await runPasskeyCeremony("create", beginPasskeySetupAction);
    setWaiting(false);
    if ("error" in outcome) return setFailure(outcome.error);
    add.run({ name, credential: outcome.credential });
  };
  const error = failure ?? add.error;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Add a passkey</DialogTitle>
        <DialogDescription>Your browser asks your device (a security key, Touch ID, Windows Hello or your phone) to make a passkey for this account.</DialogDescription>
      </DialogHeader>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <FormField label="Name" description="So you can tell your passkeys apart.">
        <Input name="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={PASSKEY_NAME_MAX} placeholder="MacBook Touch ID" autoFocus required />
      </FormField>
      <FormDialogFooter label="Continue" pendingLabel={waiting ? "Waiting for your device…" : "Adding…"} pending={waiting || add.pending} disabled={name.trim() === ""} />
    </form>
  );
}

function RemovePasskeyForm({ passkey, methods, close }: { passkey: PasskeyRow; methods: SecondFactorMethods; close: () => void }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(removePasskeyAction, () => {
    close();
    toast.success(`Removed “${passkey.name}”`);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Remove “{passkey.name}”?</DialogTitle>
        <DialogDescription>It will no longer sign you in. Confirm with a second factor first.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.code ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="passkeyId" value={passkey.id} />
      <SecondFactorFields methods={methods} beginPasskey={beginPasskeyProofAction} error={fieldErrors.code?.[0]} autoFocus />
      <FormDialogFooter label="Remove passkey" pendingLabel="Removing…" pending={pending} variant="destructive" />
    </form>
  );
}

export function PasskeysCard({ passkeys, methods }: { passkeys: PasskeyRow[]; methods: SecondFactorMethods }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Fingerprint className="size-4 text-primary" aria-hidden /> Passkeys <StatusBadge on={passkeys.length > 0} />
        </CardTitle>
        <CardDescription>Sign in with your fingerprint, face, screen lock or a security key instead of typing a code. A passkey works only on this site, so a look-alike site cannot use it.</CardDescription>
      </CardHeader>
      {codes ? (
        <RecoveryCodesShownOnce codes={codes} onDone={() => setCodes(null)} doneMessage="Two-factor authentication is on" />
      ) : (
        <>
          {passkeys.length > 0 ? (
            <CardContent>
              <ul aria-label="Your passkeys" className="divide-y rounded-md border">
                {passkeys.map((passkey) => (
                  <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                    <div className="min-w-0">
                      <p className="font-medium break-words">{passkey.name}</p>
                      <p className="text-sm text-muted-foreground">
                        Added <RelativeTime value={passkey.createdAt} /> · {passkey.lastUsedAt ? <>Last used <RelativeTime value={passkey.lastUsedAt} /></> : "Never used"}
                      </p>
                    </div>
                    <FormDialog
                      trigger={
                        <Button variant="outline" size="sm" className="text-destructive" aria-label={`Remove ${passkey.name}`}>
                          Remove
                        </Button>
                      }
                      form={(close) => <RemovePasskeyForm passkey={passkey} methods={methods} close={close} />}
                    />
                  </li>
                ))}
              </ul>
            </CardContent>
          ) : null}
          <CardFooter className="border-t">
            <FormDialog trigger={<Button variant={passkeys.length > 0 ? "outline" : "default"}>Add a passkey</Button>} form={(close) => <AddPasskeyForm close={close} onRecoveryCodes={setCodes} />} />
          </CardFooter>
        </>
      )}
    </Card>
  );
}
