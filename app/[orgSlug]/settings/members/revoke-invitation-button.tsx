"use client";

import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { revokeInvitationAction } from "./actions";

/** Ends a pending invitation at once: its link stops working. */
export function RevokeInvitationButton({ orgId, invitationId, email }: { orgId: string; invitationId: string; email: string }) {
  const revoke = useConfirmAction(revokeInvitationAction, {
    onSuccess: ({ email: revoked }) => toast.success(`The invitation to ${revoked} no longer works`),
    onError: toast.error,
  });
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={revoke.pending}
      onClick={() => revoke.run({ orgId, invitationId })}
      aria-label={`Revoke the invitation to ${email}`}
    >
      Revoke
    </Button>
  );
}
