"use client";

import Link from "next/link";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { CardContent, CardFooter } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { acceptInvitationAction, signUpWithInvitationAction } from "../../actions";

export function AcceptInvitationForm({ token, orgName }: { token: string; orgName: string }) {
  const { pending, onSubmit, error } = useActionForm(acceptInvitationAction);
  return (
    <form onSubmit={onSubmit}>
      <input type="hidden" name="token" value={token} />
      {error ? (
        <CardContent>
          <FormAlert>{error}</FormAlert>
        </CardContent>
      ) : null}
      <CardFooter className="mt-2">
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Joining…" : `Join ${orgName}`}
        </Button>
      </CardFooter>
    </form>
  );
}

/** A new account with the invited email, which the form shows and cannot change. */
export function InvitationSignUpForm({ token, email, signInHref }: { token: string; email: string; signInHref: string }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(signUpWithInvitationAction);
  return (
    <form onSubmit={onSubmit} noValidate>
      <input type="hidden" name="token" value={token} />
      <CardContent className="space-y-4">
        {error && Object.keys(fieldErrors).length === 0 ? <FormAlert>{error}</FormAlert> : null}
        <FormField label="Email" description="The invitation is for this email.">
          <Input value={email} readOnly aria-readonly autoComplete="email" className="bg-muted" />
        </FormField>
        <FormField label="Your name" error={fieldErrors.name?.[0]}>
          <Input name="name" autoComplete="name" required autoFocus />
        </FormField>
        <FormField label="Password" description="At least 10 characters." error={fieldErrors.password?.[0]}>
          <Input name="password" type="password" autoComplete="new-password" required minLength={10} />
        </FormField>
      </CardContent>
      <CardFooter className="mt-6 flex flex-col gap-3">
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Creating your account…" : "Create account and join"}
        </Button>
        <p className="text-sm text-muted-foreground">
          Already have an account?{" "}
          <Link href={signInHref} className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in to accept
          </Link>
        </p>
      </CardFooter>
    </form>
  );
}
