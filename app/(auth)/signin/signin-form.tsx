"use client";

import Link from "next/link";
import { KeyRound } from "lucide-react";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { signInAction } from "../actions";
import { CredentialsFooter, FormLevelError } from "../credential-fields";

export function SignInForm({ callbackUrl, email }: { callbackUrl: string; email: string }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(signInAction);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Sign in</CardTitle>
        <CardDescription>Manage your organization&apos;s API keys and usage.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="space-y-4">
          <FormLevelError error={error} fieldErrors={fieldErrors} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <FormField label="Email" error={fieldErrors.email?.[0]}>
            <Input name="email" type="email" autoComplete="email" required autoFocus={!email} defaultValue={email} />
          </FormField>
          <FormField label="Password" error={fieldErrors.password?.[0]}>
            <Input name="password" type="password" autoComplete="current-password" required autoFocus={Boolean(email)} />
          </FormField>
        </CardContent>
        <CredentialsFooter pending={pending} submit="Sign in" submitting="Signing in…" prompt="New here?" href="/signup" link="Create an account">
          <Button asChild variant="outline" className="w-full">
            <Link href={`/signin/sso?${new URLSearchParams({ callbackUrl })}`}>
              <KeyRound aria-hidden />
              Sign in with SSO
            </Link>
          </Button>
        </CredentialsFooter>
      </form>
    </Card>
  );
}
