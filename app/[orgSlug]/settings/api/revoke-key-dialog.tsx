"use client";

import { Loader2 } from "lucide-react";
import { useState } from "react";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { onDemand } from "@/components/on-demand";
import { AlertDialog, AlertDialogContent, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

export type RevokableKey = Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">;

/** The form loads when first wanted (the pointer on the button, focus, or the click), not with the list. */
const RevokeForm = onDemand(
  () => import("./revoke-key-form").then((module) => module.RevokeForm),
  <div role="status" className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
    <Loader2 className="size-4 animate-spin" aria-hidden />
    <AlertDialogTitle className="text-sm font-normal">Revoke API key: loading…</AlertDialogTitle>
  </div>,
);

/** The revoke confirmation (owners): the key, its last use, an optional reason and note for the history. */
export function RevokeKeyDialog({ orgId, apiKey, size = "sm" }: { orgId: string; apiKey: RevokableKey; size?: "sm" | "default" }) {
  const [open, setOpen] = useState(false);
  // A fresh form at each opening: the last attempt's choices and refusal do not greet the next one.
  const [opening, setOpening] = useState(0);

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setOpening((n) => n + 1);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button
          variant="outline"
          size={size}
          className="text-destructive hover:text-destructive"
          aria-label={`Revoke ${apiKey.name}`}
          {...RevokeForm.prefetchHandlers}
        >
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <RevokeForm key={opening} orgId={orgId} apiKey={apiKey} onRevoked={() => setOpen(false)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}
