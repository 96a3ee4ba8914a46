"use client";

import { Plus } from "lucide-react";
import { DialogLoading } from "@/components/dialog-loading";
import { FormDialog } from "@/components/form-dialog";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";
import type { AddStreamFormProps } from "./add-stream-form";

const AddStreamForm = onDemand<AddStreamFormProps>(() => import("./add-stream-form").then((module) => module.AddStreamForm), <DialogLoading />);

/** Add a stream (owners, admins): its destination and credentials, what it carries, live or test. */
export function AddStreamDialog({ orgId, disabledReason }: { orgId: string; disabledReason: string | null }) {
  return (
    <FormDialog
      trigger={
        <Button disabled={disabledReason !== null} title={disabledReason ?? undefined} {...AddStreamForm.prefetchHandlers}>
          <Plus className="size-4" aria-hidden /> Add stream
        </Button>
      }
      form={(close) => <AddStreamForm orgId={orgId} onDone={close} />}
    />
  );
}
