"use client";

import { ExternalLink } from "lucide-react";
import { FormAlert } from "@/components/form-alert";
import { useConfirmAction, type ConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";

/** Starts sudo mode's question at the identity provider: where to send the browser. */
export type ConfirmWithSsoAction = ConfirmAction<{ returnTo: string }, { url: string }>;

/**
 * Sudo mode answered at the organization's identity provider (docs/features/sso.md#sudo-mode-through-the-provider):
 * the browser goes there to sign in again and comes back to this page, where the change can be made.
 */
export function SsoConfirmation({ confirmWithSso }: { confirmWithSso: ConfirmWithSsoAction }) {
  const { pending, error, run } = useConfirmAction(confirmWithSso, { onSuccess: ({ url }) => window.location.assign(url) });
  const leave = () => run({ returnTo: `${window.location.pathname}${window.location.search}` });
  return (
    <div className="space-y-3">
      {error && <FormAlert>{error}</FormAlert>}
      <Button type="button" className="w-full" onClick={leave} disabled={pending} autoFocus>
        <ExternalLink aria-hidden />
        {pending ? "Redirecting…" : "Continue with single sign-on"}
      </Button>
      <p className="text-sm text-muted-foreground">You come back to this page afterwards; make the change again there.</p>
    </div>
  );
}
