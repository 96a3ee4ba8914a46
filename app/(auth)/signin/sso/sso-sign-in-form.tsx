"use client";

import { useActionForm } from "@/components/use-action-form";
import { Building2 } from "lucide-react";
import { FormAlert } from "@/components/form-alert";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { CredentialsFooter, FormLevelError } from "../../credential-fields";
import { ssoSignInAction } from "./actions";

/** "Sign in with SSO": the work email finds the organization's identity provider, which the browser goes to. */
export function SsoSignInForm({
  callbackUrl,
  refusal,
  notice,
  email,
}: {
  callbackUrl: string;
  /** Why the last attempt came back refused. */
  refusal: string | null;
  /** Why the person was sent here (an organization's requirement). */
  notice: string | null;
  email: string;
}) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(ssoSignInAction);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Sign in with SSO</CardTitle>
        <CardDescription>Enter your work email: we send you to your organization&apos;s identity provider.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="space-y-4">
          {refusal && !error ? <FormAlert>{refusal}</FormAlert> : null}
          {notice && !refusal && !error ? (
            <Alert role="status">
              <Building2 className="size-4" aria-hidden />
              <AlertDescription>{notice}</AlertDescription>
            </Alert>
          ) : null}
          <FormLevelError error={error} fieldErrors={fieldErrors} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <FormField label="Work email" error={fieldErrors.email?.[0]}>
            <Input name="email" type="email" autoComplete="email" required autoFocus={!email} defaultValue={email} />
          </FormField>
        </CardContent>
        <CredentialsFooter
          pending={pending}
          submit="Continue with SSO"
          submitting="Redirecting…"
          prompt="Have a password?"
          href="/signin"
          link="Sign in with your password"
        />
      </form>
    </Card>
  );
}
