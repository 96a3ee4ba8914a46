"use client";

import { SlidersHorizontal } from "lucide-react";
import { FormDialog } from "@/components/form-dialog";
import { DialogLoading } from "@/components/dialog-loading";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";
import type { EditableKey } from "./edit-access-form";

const EditAccessForm = onDemand(() => import("./edit-access-form").then((module) => module.EditAccessForm), <DialogLoading />);

/** Owners and admins: what the key may do, from where and how much; the next request is decided by the new rule. */
export function EditAccessDialog({ orgId, apiKey, label = "Edit access" }: { orgId: string; apiKey: EditableKey; label?: string }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm" {...EditAccessForm.prefetchHandlers}>
          <SlidersHorizontal className="size-4" aria-hidden /> {label}
        </Button>
      }
      form={(close) => <EditAccessForm orgId={orgId} apiKey={apiKey} onSaved={close} />}
    />
  );
}
