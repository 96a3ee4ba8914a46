"use client";

import { CopyButton } from "@/components/copy-button";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { TotpSetupDto } from "@/lib/auth/two-factor-setup";
import { confirmTotpSetupAction } from "./actions";

/** The setup key as authenticator apps print it: groups of four, easier to type by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

export interface TotpSetupStepsProps {
  setup: TotpSetupDto;
  onConfirmed: (codes: string[] | null) => void;
  onCancel: () => void;
}

/** Scan, then confirm with the first code: only then does sign-in start asking for one. Loaded when setup starts (./authenticator-app-controls.tsx). */
export function TotpSetupSteps({ setup, onConfirmed, onCancel }: TotpSetupStepsProps) {
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
            <Input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              placeholder="123456"
              className="font-mono tracking-widest"
              required
            />
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
