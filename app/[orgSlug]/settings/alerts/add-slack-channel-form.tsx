"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { createSlackChannelAction } from "./actions";

export function AddSlackChannelForm({ orgId }: { orgId: string }) {
  // A new key remounts the form empty once a channel is added.
  const [added, setAdded] = useState(0);
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createSlackChannelAction, (channel) => {
    toast.success("Slack channel added", { description: `${channel.hint} gets every alert from now on. Send it a test message from its page.` });
    setAdded((n) => n + 1);
  });
  return (
    <form key={added} onSubmit={onSubmit} noValidate className="grid items-start gap-4 sm:grid-cols-[1fr_14rem_auto]">
      <input type="hidden" name="orgId" value={orgId} />
      {error && !fieldErrors.url && !fieldErrors.description ? (
        <div className="sm:col-span-3">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
      <FormField label="Incoming-webhook URL" error={fieldErrors.url?.[0]}>
        <Input name="url" type="url" autoComplete="off" spellCheck={false} placeholder="https://hooks.slack.com/services/…" />
      </FormField>
      <FormField label="Channel (optional)" error={fieldErrors.description?.[0]}>
        <Input name="description" autoComplete="off" placeholder="#api-alerts" />
      </FormField>
      <Button type="submit" disabled={pending} className="sm:mt-[1.375rem]">
        <Plus className="size-4" aria-hidden /> {pending ? "Adding…" : "Add channel"}
      </Button>
    </form>
  );
}
