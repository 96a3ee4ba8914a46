"use client";

import { formatDistanceToNowStrict } from "date-fns";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { FormAlert } from "@/components/form-alert";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { revokeApiKeyAction } from "./actions";

export function RevokeKeyDialog({ orgId, apiKey, size = "sm" }: { orgId: string; apiKey: Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt">; size?: "sm" | "default" }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const lastUsage = apiKey.lastUsedAt ? `Last used ${formatDistanceToNowStrict(new Date(apiKey.lastUsedAt), { addSuffix: true })}` : "Never used";

  const revoke = () =>
    startTransition(async () => {
      const result = await revokeApiKeyAction(null, { orgId, keyId: apiKey.id });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setOpen(false);
      toast.success(`Revoked “${result.data.name}”`, { description: "Requests with this key now get 401 api_key_revoked." });
      router.refresh();
    });

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
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
        {error ? <FormAlert>{error}</FormAlert> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={revoke} disabled={pending}>
            {pending ? "Revoking…" : "Revoke key"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
