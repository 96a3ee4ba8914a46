"use client";

import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { ModeField } from "@/components/mode-field";
import { toast } from "@/components/toast";
import { useActionForm } from "@/components/use-action-form";
import { CheckboxSetField } from "@/components/checkbox-set-field";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { Mode } from "@/core/enums";
import { LOG_STREAM_BACKLOG_DAYS, LOG_STREAM_KIND_VALUES, LOG_STREAM_SOURCE_VALUES, type LogStreamKind } from "@/core/log-streams";
import { LOG_STREAM_NAME_MAX } from "@/lib/log-streams/input";
import { DESTINATION_LABELS, SOURCE_LABELS } from "@/lib/log-streams/labels";
import { viewModeOf } from "@/lib/view-mode";
import { createLogStreamAction } from "./actions";
import { DestinationFields } from "./destination-fields";

export interface AddStreamFormProps {
  orgId: string;
  onDone: () => void;
}

const MODE_HELP: Record<Mode, string> = {
  live: "Requests of your live keys.",
  test: "Requests of your test keys only, to try the stream out.",
};

/** Loaded when "Add stream" opens (./add-stream-dialog.tsx). */
export function AddStreamForm({ orgId, onDone }: AddStreamFormProps) {
  const [kind, setKind] = useState<LogStreamKind>("datadog");
  // In test mode a new stream carries the test keys' requests unless changed, as a webhook endpoint does.
  const [mode, setMode] = useState<Mode>(viewModeOf(useSearchParams()));
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createLogStreamAction, () => {
    toast.success("Log stream added", { description: "It carries what happens from now on." });
    onDone();
  });
  // A refusal of a field shows beside it; only one of no field shows on top.
  const onAField = Object.keys(fieldErrors).length > 0;
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Add a log stream</DialogTitle>
        <DialogDescription>
          Events are sent in order, in batches within seconds, and kept for up to {LOG_STREAM_BACKLOG_DAYS} days while the destination is down.
        </DialogDescription>
      </DialogHeader>
      {error && !onAField ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <FormField label="Name" error={fieldErrors.name?.[0]}>
        <Input name="name" placeholder="Datadog audit trail" maxLength={LOG_STREAM_NAME_MAX} autoComplete="off" />
      </FormField>
      <FormField label="Destination" error={fieldErrors.kind?.[0]} description={DESTINATION_LABELS[kind].description}>
        <NativeSelect name="kind" value={kind} onChange={(event) => setKind(event.target.value as LogStreamKind)}>
          {LOG_STREAM_KIND_VALUES.map((value) => (
            <option key={value} value={value}>
              {DESTINATION_LABELS[value].name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {/* Keyed by kind: another destination starts from empty fields, so no credential typed for one is sent to another. */}
      <DestinationFields key={kind} kind={kind} errors={fieldErrors} />
      <CheckboxSetField
        legend="Carries"
        name="sources"
        options={LOG_STREAM_SOURCE_VALUES.map((source) => ({
          value: source,
          label: SOURCE_LABELS[source].name,
          description: SOURCE_LABELS[source].description,
        }))}
        error={fieldErrors.sources?.[0]}
      />
      <ModeField value={mode} onChange={setMode} help={MODE_HELP} error={fieldErrors.mode?.[0]} />
      <FormDialogFooter label="Add stream" pendingLabel="Adding…" pending={pending} />
    </form>
  );
}
