"use client";

import { Unplug } from "lucide-react";
import { RemovalDialog } from "@/components/removal-dialog";
import { toast } from "@/components/toast";
import { removeSsoConnectionAction } from "./actions";

/** Removes the provider and its secret, confirmed first. */
export function RemoveConnection({ orgId, issuer }: { orgId: string; issuer: string }) {
  return (
    <RemovalDialog
      action={removeSsoConnectionAction}
      input={{ orgId }}
      onRemoved={() => toast.success("Single sign-on provider removed", { description: issuer })}
      trigger={{ icon: <Unplug className="size-4" aria-hidden />, label: "Remove", size: "sm" }}
      title="Remove the identity provider?"
      description="Its settings and client secret are deleted; your domains stay verified. The activity history keeps the removal."
      confirmLabel="Remove provider"
      pendingLabel="Removing…"
    />
  );
}
