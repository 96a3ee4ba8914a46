"use client";

import { Pencil } from "lucide-react";
import { FormDialog, FormDialogFooter } from "@/components/form-dialog";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { SsoRole } from "@/core/sso";
import { ConnectionForm } from "./connection-form";

/** New settings for the saved provider: the same form, the saved values filled in but the secret. */
export function ChangeConnectionDialog({ orgId, connection }: { orgId: string; connection: { issuer: string; clientId: string; defaultRole: SsoRole } }) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm">
          <Pencil className="size-4" aria-hidden /> Change
        </Button>
      }
      form={(close) => (
        <ConnectionForm
          orgId={orgId}
          initial={connection}
          onDone={close}
          header={
            <DialogHeader>
              <DialogTitle>Change the identity provider</DialogTitle>
              <DialogDescription>The issuer is checked again before the new settings are saved.</DialogDescription>
            </DialogHeader>
          }
          footer={(pending) => <FormDialogFooter label="Save provider" pendingLabel="Checking the issuer…" pending={pending} />}
        />
      )}
    />
  );
}
