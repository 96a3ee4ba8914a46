"use client";

import { Power, RefreshCw, Send, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/toast";
import { ConfirmFooter } from "@/components/confirm-footer";
import { RemovalDialog } from "@/components/removal-dialog";
import { useConfirmAction } from "@/components/use-confirm-action";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import type { WebhookFormat } from "@/core/enums";
import { deleteWebhookEndpointAction, rotateWebhookSecretAction, sendTestWebhookAction, setWebhookEndpointEnabledAction } from "../actions";
import { SecretReveal } from "../secret-reveal";

type Endpoint = { id: string; url: string; enabled: boolean; format: WebhookFormat };

/**
 * The endpoint's actions: test event, on/off, secret rotation and deletion (the last two confirmed
 * first). A Slack channel (docs/features/notifications.md#slack) reads no signature: it has no secret to rotate.
 */
export function EndpointControls({ orgId, orgSlug, endpoint }: { orgId: string; orgSlug: string; endpoint: Endpoint }) {
  const slack = endpoint.format === "slack";
  const input = { orgId, endpointId: endpoint.id };
  const test = useConfirmAction(sendTestWebhookAction, {
    onSuccess: () => toast.success("Test event queued", { description: "It appears in the deliveries below." }),
    onError: toast.error,
  });
  const toggle = useConfirmAction(setWebhookEndpointEnabledAction, {
    onSuccess: ({ enabled }) => toast.success(enabled ? "Endpoint turned on" : "Endpoint turned off"),
    onError: toast.error,
  });
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" disabled={!endpoint.enabled || test.pending} onClick={() => test.run(input)}>
        <Send className="size-4" aria-hidden /> {test.pending ? "Sending…" : slack ? "Send test message" : "Send test event"}
      </Button>
      <Button variant="outline" disabled={toggle.pending} onClick={() => toggle.run({ ...input, enabled: endpoint.enabled ? "false" : "true" })}>
        <Power className="size-4" aria-hidden /> {endpoint.enabled ? "Turn off" : "Turn on"}
      </Button>
      {slack ? null : <RotateSecret input={input} />}
      <DeleteEndpoint
        input={input}
        url={endpoint.url}
        back={`/${orgSlug}/settings/${slack ? "alerts" : "webhooks"}`}
        noun={slack ? "Slack channel" : "endpoint"}
      />
    </div>
  );
}

function RotateSecret({ input }: { input: { orgId: string; endpointId: string } }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useConfirmAction(rotateWebhookSecretAction, { onSuccess: (rotated) => setSecret(rotated.secret) });
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSecret(null);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline">
          <RefreshCw className="size-4" aria-hidden /> Rotate secret
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{secret ? "Save the new signing secret" : "Rotate the signing secret?"}</AlertDialogTitle>
          <AlertDialogDescription>
            {secret
              ? "Deliveries are signed with both secrets for the next 24 hours, then with the new one only."
              : "A new secret is made and shown once. For 24 hours deliveries carry a signature with each secret, so your receiver keeps verifying while you switch it over."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {secret ? (
          <>
            <SecretReveal secret={secret} note="If you lose it, rotate again." />
            <AlertDialogFooter>
              <AlertDialogCancel>Done</AlertDialogCancel>
            </AlertDialogFooter>
          </>
        ) : (
          <ConfirmFooter
            label="Rotate secret"
            pendingLabel="Rotating…"
            pending={rotate.pending}
            error={rotate.error}
            variant="default"
            onConfirm={() => rotate.run(input)}
          />
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DeleteEndpoint({ input, url, back, noun }: { input: { orgId: string; endpointId: string }; url: string; back: string; noun: string }) {
  const router = useRouter();
  return (
    <RemovalDialog
      action={deleteWebhookEndpointAction}
      input={input}
      onRemoved={() => {
        toast.success(`${noun.charAt(0).toUpperCase()}${noun.slice(1)} deleted`, { description: url });
        router.push(back);
      }}
      trigger={{ icon: <Trash2 className="size-4" aria-hidden />, label: "Delete" }}
      title={`Delete this ${noun}?`}
      description={
        <>
          <span className="break-all font-mono">{url}</span> stops receiving events at once, deliveries still being retried are dropped, and its delivery log is
          deleted. The activity history keeps the deletion.
        </>
      }
      confirmLabel={`Delete ${noun}`}
      pendingLabel="Deleting…"
    />
  );
}
