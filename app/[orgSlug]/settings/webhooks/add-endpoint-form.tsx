"use client";

import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { WEBHOOK_EVENT_TYPE_VALUES, WEBHOOK_EVENT_TYPES, type Mode, type WebhookEventType } from "@/core/enums";
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
  const [events, setEvents] = useState<Set<WebhookEventType>>(new Set(WEBHOOK_EVENT_TYPE_VALUES));
  // In test mode a new endpoint is a test one unless changed (docs/features/test-mode.md#webhooks).
  const [mode, setMode] = useState<Mode>(viewModeOf(useSearchParams()));
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createWebhookEndpointAction, (added) => {
    onAdded(added.secret);
    toast.success("Endpoint added", { description: added.url });
  });
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
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
      <input type="hidden" name="eventTypes" value={[...events].join(",")} />
      <FormField label="Endpoint URL" error={fieldErrors.url?.[0]} description="HTTPS, reachable from the internet.">
        <Input name="url" type="url" placeholder="https://example.com/webhooks/invoicing" autoComplete="off" required />
      </FormField>
      <FormField label="Description (optional)" error={fieldErrors.description?.[0]}>
        <Input name="description" placeholder="Slack alerts relay" maxLength={WEBHOOK_DESCRIPTION_MAX} />
      </FormField>
      <ModeField value={mode} onChange={setMode} help={MODE_HELP} error={fieldErrors.mode?.[0]} />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENT_TYPE_VALUES.map((type) => (
          <div key={type} className="flex items-start gap-3">
            <Checkbox id={`event-${type}`} checked={events.has(type)} onCheckedChange={(checked) => toggle(type, checked === true)} className="mt-0.5" />
            <Label htmlFor={`event-${type}`} className="grid gap-0.5 font-normal">
              <code className="text-sm font-medium">{type}</code>
              <span className="text-sm text-muted-foreground">{WEBHOOK_EVENT_TYPES[type]}</span>
            </Label>
          </div>
        ))}
        {fieldErrors.eventTypes?.[0] ? (
          <p role="alert" className="text-sm text-destructive">
            {fieldErrors.eventTypes[0]}
          </p>
        ) : null}
      </fieldset>
      <FormDialogFooter label="Add endpoint" pendingLabel="Adding…" pending={pending} />
    </form>
  );
}
