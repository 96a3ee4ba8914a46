"use client";

import { PencilLine } from "lucide-react";
import { FormDialog } from "@/components/form-dialog";
import { LazyDialogForm } from "@/components/lazy-dialog-form";
import { lazyModule, prefetchOn } from "@/components/lazy-module";
import { Button } from "@/components/ui/button";

const forms = lazyModule(() => import("./rename-key-form"));

/** Rename (owners, admins): the value, the history and the requests stay; only the label changes. */
export function RenameKeyDialog({ orgId, apiKey }: { orgId: string; apiKey: { id: string; name: string } }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" aria-label={`Rename ${apiKey.name}`} {...prefetchOn(forms)}>
          <PencilLine className="size-4" aria-hidden /> Rename
        </Button>
      }
      form={(close) => (
        <LazyDialogForm forms={forms} title="Rename API key">
          {({ RenameForm }) => <RenameForm orgId={orgId} apiKey={apiKey} onRenamed={close} />}
        </LazyDialogForm>
      )}
    />
  );
}
