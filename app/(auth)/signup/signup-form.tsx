"use client";

import { useActionForm } from "@/components/use-action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { signUpAction } from "../actions";
import { CredentialsFooter, FormLevelError, NameField, NewPasswordField } from "../credential-fields";

export function SignUpForm() {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(signUpAction);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Create your account</CardTitle>
        <CardDescription>You get a new organization on the Trial plan: 2 API keys and 50 calls a month.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="space-y-4">
          <FormLevelError error={error} fieldErrors={fieldErrors} />
          <NameField error={fieldErrors.name?.[0]} />
          <FormField label="Work email" error={fieldErrors.email?.[0]}>
            <Input name="email" type="email" autoComplete="email" required />
          </FormField>
          <NewPasswordField error={fieldErrors.password?.[0]} />
          <FormField label="Organization name" error={fieldErrors.organizationName?.[0]}>
            <Input name="organizationName" autoComplete="organization" required placeholder="Acme Inc" />
          </FormField>
        </CardContent>
        <CredentialsFooter
          pending={pending}
          submit="Create account"
          submitting="Creating your account…"
          prompt="Already have an account?"
          href="/signin"
          link="Sign in"
        />
      </form>
    </Card>
  );
}
