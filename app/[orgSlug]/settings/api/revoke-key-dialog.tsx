"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { AlertDialog, AlertDialogContent, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

export type RevokableKey = Pick<ApiKeyDto, "id" | "name" | "hint" | "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">;

const loadRevokeForm = () => import("./revoke-key-form");
/** The form loads when first wanted (the pointer on the button, focus, or the click), not with the list. */
const RevokeForm = dynamic(() => loadRevokeForm().then((module) => module.RevokeForm), {
  loading: () => <Skeleton className="h-72 w-full" aria-label="Loading the form" />,
});

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
          onPointerEnter={() => void loadRevokeForm()}
          onFocus={() => void loadRevokeForm()}
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
