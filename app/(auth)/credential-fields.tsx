"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { FormAlert } from "@/components/form-alert";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-length";

// The parts the sign-in, sign-up and invitation sign-up forms share.

/** A refusal that belongs to no field (a wrong password, too many attempts); a field's own shows under it. */
export function FormLevelError({ error, fieldErrors }: { error: string | null; fieldErrors: Record<string, string[]> }) {
  return error && Object.keys(fieldErrors).length === 0 ? <FormAlert>{error}</FormAlert> : null;
}

export function NameField({ error }: { error?: string }) {
  return (
    <FormField label="Your name" error={error}>
      <Input name="name" autoComplete="name" required autoFocus />
    </FormField>
  );
}

export function NewPasswordField({ error }: { error?: string }) {
  return (
    <FormField label="Password" description={`At least ${PASSWORD_MIN_LENGTH} characters.`} error={error}>
      <Input name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} />
    </FormField>
  );
}

/** The submit button, another way in (`children`, such as single sign-on), and the way to the other form for someone on the wrong one. */
export function CredentialsFooter({
  pending,
  submit,
  submitting,
  prompt,
  href,
  link,
  children,
}: {
  pending: boolean;
  submit: string;
  submitting: string;
  prompt: string;
  href: string;
  link: string;
  children?: ReactNode;
}) {
  return (
    <CardFooter className="mt-6 flex flex-col gap-3">
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? submitting : submit}
      </Button>
      {children}
      <p className="text-sm text-muted-foreground">
        {prompt}{" "}
        <Link href={href} className="font-medium text-primary underline-offset-4 hover:underline">
          {link}
        </Link>
      </p>
    </CardFooter>
  );
}
