"use client";

import { PencilLine } from "lucide-react";
import { FormDialog } from "@/components/form-dialog";
import { DialogLoading } from "@/components/dialog-loading";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";

const RenameForm = onDemand(() => import("./rename-key-form").then((module) => module.RenameForm), <DialogLoading />);

/** Rename (owners, admins): the value, the history and the requests stay; only the label changes. */
export function RenameKeyDialog({ orgId, apiKey }: { orgId: string; apiKey: { id: string; name: string } }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" aria-label={`Rename ${apiKey.name}`} {...RenameForm.prefetchHandlers}>
          <PencilLine className="size-4" aria-hidden /> Rename
        </Button>
      }
      form={(close) => <RenameForm orgId={orgId} apiKey={apiKey} onRenamed={close} />}
    />
  );
}
