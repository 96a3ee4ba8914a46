"use client";

import { Plus } from "lucide-react";
import { DialogLoading } from "@/components/dialog-loading";
import { onDemand } from "@/components/on-demand";
import { OneTimeKeyDialog } from "@/components/one-time-key-dialog";
import { Button } from "@/components/ui/button";
import type { KeyPolicy } from "@/lib/keys/policy";

/** The form loads when first wanted (the pointer on the button, focus, or the click), not with the list. */
const CreateKeyForm = onDemand(() => import("./create-key-form").then((module) => module.CreateKeyForm), <DialogLoading />);

/**
 * "Create API key"; at the plan's limit of active keys the same button disabled with the limit
 * beside it, so the person learns it before filling in the form (the server refuses either way).
 * One tree in both cases: creating the last allowed key turns the limit on while its value is
 * still on screen, and the dialog that shows it must stay mounted.
 */
export function CreateKeyDialog({ orgId, keyPolicy, limitReached }: { orgId: string; keyPolicy: KeyPolicy; limitReached: string | null }) {
  return (
    <div className="flex max-w-xs flex-col items-start gap-2 sm:items-end">
      <OneTimeKeyDialog
        trigger={
          <Button disabled={limitReached !== null} aria-describedby={limitReached ? "key-limit" : undefined} {...CreateKeyForm.prefetchHandlers}>
            <Plus className="size-4" aria-hidden /> Create API key
          </Button>
        }
        intro={(key) => <>“{key.name}” is ready.</>}
        form={(reveal) => <CreateKeyForm orgId={orgId} keyPolicy={keyPolicy} onCreated={reveal} />}
      />
      {limitReached ? (
        <p id="key-limit" className="text-sm text-muted-foreground sm:text-right">
          {limitReached}
        </p>
      ) : null}
    </div>
  );
}
