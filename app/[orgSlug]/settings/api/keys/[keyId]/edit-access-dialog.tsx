"use client";

import { SlidersHorizontal } from "lucide-react";
import { FormDialog } from "@/components/form-dialog";
import { LazyDialogForm } from "@/components/lazy-dialog-form";
import { lazyModule, prefetchOn } from "@/components/lazy-module";
import { Button } from "@/components/ui/button";
import type { EditableKey } from "./edit-access-form";

const forms = lazyModule(() => import("./edit-access-form"));

/** Owners and admins: what the key may do, from where and how much; the next request is decided by the new rule. */
export function EditAccessDialog({ orgId, apiKey, label = "Edit access" }: { orgId: string; apiKey: EditableKey; label?: string }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm" {...prefetchOn(forms)}>
          <SlidersHorizontal className="size-4" aria-hidden /> {label}
        </Button>
      }
      form={(close) => (
        <LazyDialogForm forms={forms} title="Edit access">
          {({ EditAccessForm }) => <EditAccessForm orgId={orgId} apiKey={apiKey} onSaved={close} />}
        </LazyDialogForm>
      )}
    />
  );
}
