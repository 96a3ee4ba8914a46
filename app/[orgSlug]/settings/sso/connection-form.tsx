"use client";

import { useState, type ReactNode } from "react";
import { FormAlert } from "@/components/form-alert";
import { toast } from "@/components/toast";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { SSO_ROLE_VALUES, type SsoRole } from "@/core/sso";
import { ROLE_INFO } from "@/lib/roles";
import { CLIENT_ID_MAX, CLIENT_SECRET_MAX } from "@/lib/sso/input";
import { ISSUER_URL_MAX } from "@/lib/sso/issuer-url";
import { saveSsoConnectionAction } from "./actions";

export interface ConnectionFormProps {
  orgId: string;
  /** The saved settings, when changing them; the secret is never sent back, so it is asked again. */
  initial?: { issuer: string; clientId: string; defaultRole: SsoRole };
  onDone?: () => void;
  /** What goes above the fields (a dialog's title) and in place of the save button (a dialog's footer), given whether it is saving. */
  header?: ReactNode;
  footer?: (pending: boolean) => ReactNode;
}

const secret = { type: "password", autoComplete: "off", spellCheck: false } as const;

/** The provider's settings, read by lib/sso/input.ts; saving asks the issuer for its discovery document, so the wait says so. */
export function ConnectionForm({ orgId, initial, onDone, header, footer }: ConnectionFormProps) {
  const [role, setRole] = useState<SsoRole>(initial?.defaultRole ?? "member");
  const { pending, onSubmit, error, fieldErrors } = useActionForm(saveSsoConnectionAction, (data) => {
    toast.success("Single sign-on provider saved", { description: data.issuer });
    onDone?.();
  });
  const onAField = Object.keys(fieldErrors).length > 0;
  return (
    // wrap-anywhere: a long address in a hint or a refusal wraps rather than widening the form past a phone's screen.
    <form onSubmit={onSubmit} className="grid gap-4 wrap-anywhere" noValidate>
      {header}
      {error && !onAField ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <FormField
        label="Issuer URL"
        error={fieldErrors.issuer?.[0]}
        description="Your provider's issuer, such as https://acme.okta.com or https://login.microsoftonline.com/<tenant>/v2.0."
      >
        <Input
          name="issuer"
          type="url"
          defaultValue={initial?.issuer}
          placeholder="https://login.example.com"
          maxLength={ISSUER_URL_MAX}
          autoComplete="off"
          spellCheck={false}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Client ID" error={fieldErrors.clientId?.[0]}>
          <Input name="clientId" defaultValue={initial?.clientId} maxLength={CLIENT_ID_MAX} autoComplete="off" spellCheck={false} />
        </FormField>
        <FormField
          label="Client secret"
          error={fieldErrors.clientSecret?.[0]}
          description={initial ? "Enter it again: it is never shown after saving." : undefined}
        >
          <Input name="clientSecret" maxLength={CLIENT_SECRET_MAX} {...secret} />
        </FormField>
      </div>
      <FormField
        label="Role on first sign-in"
        error={fieldErrors.defaultRole?.[0]}
        description={`For someone the provider signs in who is not a member yet. ${ROLE_INFO[role].description}`}
      >
        <NativeSelect name="defaultRole" value={role} onChange={(event) => setRole(event.target.value as SsoRole)}>
          {SSO_ROLE_VALUES.map((value) => (
            <option key={value} value={value}>
              {ROLE_INFO[value].label}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {footer ? (
        footer(pending)
      ) : (
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Checking the issuer…" : "Save provider"}
          </Button>
        </div>
      )}
    </form>
  );
}
