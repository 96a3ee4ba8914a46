"use client";

import { CircleCheck } from "lucide-react";
import { CardButtonForm } from "@/components/card-button-form";
import { useActionForm } from "@/components/use-action-form";
import { CardContent } from "@/components/ui/card";
import { unsubscribeAction } from "./actions";

export function UnsubscribeForm({ token }: { token: string }) {
  const { state, pending, onSubmit, error } = useActionForm(unsubscribeAction);
  if (state?.ok) {
    return (
      <CardContent>
        <p role="status" className="flex items-start gap-2 text-sm">
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
          Unsubscribed: no more {state.data.emails} from {state.data.orgName}.
        </p>
      </CardContent>
    );
  }
  return <CardButtonForm token={token} onSubmit={onSubmit} pending={pending} error={error} label="Unsubscribe" pendingLabel="Unsubscribing…" />;
}
