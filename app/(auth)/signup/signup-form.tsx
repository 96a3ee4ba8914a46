"use client";

import Link from "next/link";
import { useActionForm } from "@/components/use-action-form";
import { FormAlert } from "@/components/form-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { signUpAction } from "../actions";

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
          {error && Object.keys(fieldErrors).length === 0 ? <FormAlert>{error}</FormAlert> : null}
          <FormField label="Your name" error={fieldErrors.name?.[0]}>
            <Input name="name" autoComplete="name" required autoFocus />
          </FormField>
          <FormField label="Work email" error={fieldErrors.email?.[0]}>
            <Input name="email" type="email" autoComplete="email" required />
          </FormField>
          <FormField label="Password" description="At least 10 characters." error={fieldErrors.password?.[0]}>
            <Input name="password" type="password" autoComplete="new-password" required minLength={10} />
          </FormField>
          <FormField label="Organization name" error={fieldErrors.organizationName?.[0]}>
            <Input name="organizationName" autoComplete="organization" required placeholder="Acme Inc" />
          </FormField>
        </CardContent>
        <CardFooter className="mt-6 flex flex-col gap-3">
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? "Creating your account…" : "Create account"}
          </Button>
          <p className="text-sm text-muted-foreground">
            Already have an account?{" "}
            <Link href="/signin" className="font-medium text-primary underline-offset-4 hover:underline">
              Sign in
            </Link>
          </p>
        </CardFooter>
      </form>
    </Card>
  );
}
