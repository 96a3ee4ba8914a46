"use client";

import { CardButtonForm } from "@/components/card-button-form";
import { useActionForm } from "@/components/use-action-form";
import { CardContent } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { acceptInvitationAction, signUpWithInvitationAction } from "../../actions";
import { CredentialsFooter, FormLevelError, NameField, NewPasswordField } from "../../credential-fields";

export function AcceptInvitationForm({ token, orgName }: { token: string; orgName: string }) {
  const { pending, onSubmit, error } = useActionForm(acceptInvitationAction);
  return <CardButtonForm token={token} onSubmit={onSubmit} pending={pending} error={error} label={`Join ${orgName}`} pendingLabel="Joining…" />;
}

/** A new account with the invited email, which the form shows and cannot change. */
export function InvitationSignUpForm({ token, email, signInHref }: { token: string; email: string; signInHref: string }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(signUpWithInvitationAction);
  return (
    <form onSubmit={onSubmit} noValidate>
      <input type="hidden" name="token" value={token} />
      <CardContent className="space-y-4">
        <FormLevelError error={error} fieldErrors={fieldErrors} />
        <FormField label="Email" description="The invitation is for this email.">
          <Input value={email} readOnly aria-readonly autoComplete="email" className="bg-muted" />
        </FormField>
        <NameField error={fieldErrors.name?.[0]} />
        <NewPasswordField error={fieldErrors.password?.[0]} />
      </CardContent>
      <CredentialsFooter
        pending={pending}
        submit="Create account and join"
        submitting="Creating your account…"
        prompt="Already have an account?"
        href={signInHref}
        link="Sign in to accept"
      />
    </form>
  );
}
