"use client";

import { formatDistanceToNowStrict } from "date-fns";
import { useState } from "react";
import { toast } from "sonner";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { revokeApiKeyAction } from "./actions";

export function RevokeKeyDialog({ orgId, apiKey, size = "sm" }: { orgId: string; apiKey: Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt">; size?: "sm" | "default" }) {
  const [open, setOpen] = useState(false);
  const revoke = useConfirmAction(revokeApiKeyAction, {
    onSuccess: (revoked) => {
      setOpen(false);
      toast.success(`Revoked “${revoked.name}”`, { description: "Requests with this key now get 401 api_key_revoked." });
    },
  });
  const lastUsage = apiKey.lastUsedAt ? `Last used ${formatDistanceToNowStrict(new Date(apiKey.lastUsedAt), { addSuffix: true })}` : "Never used";

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        revoke.clearError();
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline" size={size} className="text-destructive hover:text-destructive" aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke API key</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="space-y-3">
              <div className="rounded-md border bg-muted/50 px-3 py-2 text-foreground">
                <p className="font-medium break-words">{apiKey.name}</p>
                <p className="text-sm text-muted-foreground">
                  <code className="font-mono text-xs">{apiKey.hint}</code> · {lastUsage}
                </p>
              </div>
              <p>Requests using this key will fail at once with 401. This cannot be undone: to restore access, create a new key and deploy it.</p>
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter
          label="Revoke key"
          pendingLabel="Revoking…"
          pending={revoke.pending}
          error={revoke.error}
          onConfirm={() => revoke.run({ orgId, keyId: apiKey.id })}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
