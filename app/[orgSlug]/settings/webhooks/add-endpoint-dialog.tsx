"use client";

import { Plus } from "lucide-react";
import { DialogLoading } from "@/components/dialog-loading";
import { FormDialog } from "@/components/form-dialog";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";
import type { AddEndpointProps } from "./add-endpoint-form";

const AddEndpoint = onDemand<AddEndpointProps>(() => import("./add-endpoint-form").then((module) => module.AddEndpoint), <DialogLoading />);

/** Add an endpoint (owners, admins): URL, description, events; then its signing secret, once. */
export function AddEndpointDialog({ orgId, disabledReason }: { orgId: string; disabledReason: string | null }) {
  return (
    <FormDialog
      trigger={
        <Button disabled={disabledReason !== null} title={disabledReason ?? undefined} {...AddEndpoint.prefetchHandlers}>
          <Plus className="size-4" aria-hidden /> Add endpoint
        </Button>
      }
      form={(close) => <AddEndpoint orgId={orgId} onDone={close} />}
    />
  );
}
