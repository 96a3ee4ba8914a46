"use client";

import Link from "next/link";
import { useActionForm } from "@/components/use-action-form";
import { FormAlert } from "@/components/form-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { signInAction } from "../actions";

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
          {error && Object.keys(fieldErrors).length === 0 ? <FormAlert>{error}</FormAlert> : null}
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <FormField label="Email" error={fieldErrors.email?.[0]}>
            <Input name="email" type="email" autoComplete="email" required autoFocus={!email} defaultValue={email} />
          </FormField>
          <FormField label="Password" error={fieldErrors.password?.[0]}>
            <Input name="password" type="password" autoComplete="current-password" required autoFocus={Boolean(email)} />
          </FormField>
        </CardContent>
        <CardFooter className="mt-6 flex flex-col gap-3">
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? "Signing in…" : "Sign in"}
          </Button>
          <p className="text-sm text-muted-foreground">
            New here?{" "}
            <Link href="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
              Create an account
            </Link>
          </p>
        </CardFooter>
      </form>
    </Card>
  );
}
