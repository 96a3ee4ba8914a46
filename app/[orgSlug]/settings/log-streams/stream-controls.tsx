"use client";

import { Pause, Play, Send, Trash2 } from "lucide-react";
import { RemovalDialog } from "@/components/removal-dialog";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { LOG_STREAM_BACKLOG_DAYS } from "@/core/log-streams";
import { deleteLogStreamAction, sendLogStreamTestEventAction, setLogStreamPausedAction } from "./actions";

type Stream = { id: string; name: string; paused: boolean };

/** A stream's actions: a test event sent at once, pause or resume, and deletion, confirmed first. */
export function StreamControls({ orgId, stream }: { orgId: string; stream: Stream }) {
  const input = { orgId, streamId: stream.id };
  const test = useConfirmAction(sendLogStreamTestEventAction, {
    onSuccess: () => toast.success("Test event delivered", { description: `The destination of “${stream.name}” took it.` }),
    onError: (message) => toast.error(message),
  });
  const pause = useConfirmAction(setLogStreamPausedAction, {
    onSuccess: ({ paused }) =>
      toast.success(paused ? "Stream paused" : "Stream resumed", {
        description: paused ? `Events wait for it, for up to ${LOG_STREAM_BACKLOG_DAYS} days.` : "It catches up on what waited, in order.",
      }),
    onError: (message) => toast.error(message),
  });
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" size="sm" disabled={test.pending} onClick={() => test.run(input)} aria-label={`Send test event to ${stream.name}`}>
        <Send className="size-4" aria-hidden /> {test.pending ? "Sending…" : "Send test event"}
      </Button>
      <Button
        variant="outline"
        size="sm"
        disabled={pause.pending}
        onClick={() => pause.run({ ...input, paused: stream.paused ? "false" : "true" })}
        aria-label={`${stream.paused ? "Resume" : "Pause"} ${stream.name}`}
      >
        {stream.paused ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />} {stream.paused ? "Resume" : "Pause"}
      </Button>
      <DeleteStream input={input} name={stream.name} />
    </div>
  );
}

function DeleteStream({ input, name }: { input: { orgId: string; streamId: string }; name: string }) {
  return (
    <RemovalDialog
      action={deleteLogStreamAction}
      input={input}
      onRemoved={() => toast.success("Log stream deleted", { description: name })}
      trigger={{ icon: <Trash2 className="size-4" aria-hidden />, label: "Delete", ariaLabel: `Delete ${name}`, size: "sm" }}
      title={<>Delete the log stream “{name}”?</>}
      description="It stops at once: events not yet delivered are not sent, and its credentials are deleted. The activity history keeps the deletion."
      confirmLabel="Delete stream"
      pendingLabel="Deleting…"
    />
  );
}
