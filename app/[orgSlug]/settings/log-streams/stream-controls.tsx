"use client";

import { Pause, Play, Send, Trash2 } from "lucide-react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
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
  const remove = useConfirmAction(deleteLogStreamAction, { onSuccess: () => toast.success("Log stream deleted", { description: name }) });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${name}`}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete the log stream “{name}”?</AlertDialogTitle>
          <AlertDialogDescription>
            It stops at once: events not yet delivered are not sent, and its credentials are deleted. The activity history keeps the deletion.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter label="Delete stream" pendingLabel="Deleting…" pending={remove.pending} error={remove.error} onConfirm={() => remove.run(input)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}
