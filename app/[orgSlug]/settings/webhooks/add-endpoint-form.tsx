"use client";

import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { CheckboxSetField } from "@/components/checkbox-set-field";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { WEBHOOK_EVENT_TYPE_VALUES, WEBHOOK_EVENT_TYPES, type Mode } from "@/core/enums";
import { ModeField } from "@/components/mode-field";
import { viewModeOf } from "@/lib/view-mode";
import { WEBHOOK_DESCRIPTION_MAX } from "@/lib/webhooks/input";
import { createWebhookEndpointAction } from "./actions";
import { SecretReveal } from "./secret-reveal";

export interface AddEndpointProps {
  orgId: string;
  onDone: () => void;
}

/**
 * The form until the endpoint exists, then its secret: mounted afresh at each opening, so no secret
 * outlives its dialog. Loaded when "Add endpoint" opens (./add-endpoint-dialog.tsx).
 */
export function AddEndpoint({ orgId, onDone }: AddEndpointProps) {
  const [secret, setSecret] = useState<string | null>(null);
  if (!secret) return <AddEndpointForm orgId={orgId} onAdded={setSecret} />;
  return (
    <>
      <DialogHeader>
        <DialogTitle>Save the signing secret</DialogTitle>
        <DialogDescription>The endpoint is added and receives its events from now on.</DialogDescription>
      </DialogHeader>
      <SecretReveal secret={secret} />
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}

const MODE_HELP: Record<Mode, string> = {
  live: "Events of your live keys and data.",
  test: "Events of your test keys only, to build your receiver against.",
};

function AddEndpointForm({ orgId, onAdded }: { orgId: string; onAdded: (secret: string) => void }) {
  // In test mode a new endpoint is a test one unless changed (docs/features/test-mode.md#webhooks).
  const [mode, setMode] = useState<Mode>(viewModeOf(useSearchParams()));
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createWebhookEndpointAction, (added) => {
    onAdded(added.secret);
    toast.success("Endpoint added", { description: added.url });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Add a webhook endpoint</DialogTitle>
        <DialogDescription>
          Events are sent as signed JSON POST requests (Standard Webhooks), retried for 24 hours until your server answers 2xx.
        </DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.url && !fieldErrors.eventTypes && !fieldErrors.mode ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <FormField label="Endpoint URL" error={fieldErrors.url?.[0]} description="HTTPS, reachable from the internet.">
        <Input name="url" type="url" placeholder="https://example.com/webhooks/invoicing" autoComplete="off" required />
      </FormField>
      <FormField label="Description (optional)" error={fieldErrors.description?.[0]}>
        <Input name="description" placeholder="Slack alerts relay" maxLength={WEBHOOK_DESCRIPTION_MAX} />
      </FormField>
      <ModeField value={mode} onChange={setMode} help={MODE_HELP} error={fieldErrors.mode?.[0]} />
      <CheckboxSetField
        legend="Events"
        name="eventTypes"
        options={WEBHOOK_EVENT_TYPE_VALUES.map((type) => ({ value: type, label: <code>{type}</code>, description: WEBHOOK_EVENT_TYPES[type] }))}
        error={fieldErrors.eventTypes?.[0]}
      />
      <FormDialogFooter label="Add endpoint" pendingLabel="Adding…" pending={pending} />
    </form>
  );
}
