"use client";

import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import { signOutAction } from "./actions";

/** Signs out; with `callbackUrl` (the link), sign-in comes back to it, to accept it with the invited account. */
export function SignOutForm({ callbackUrl }: { callbackUrl?: string }) {
  const { pending, onSubmit } = useActionForm(signOutAction);
  return (
    <form onSubmit={onSubmit}>
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <CardFooter className="mt-4">
        <Button type="submit" variant="outline" className="w-full" disabled={pending}>
          Sign out
        </Button>
      </CardFooter>
    </form>
  );
}
