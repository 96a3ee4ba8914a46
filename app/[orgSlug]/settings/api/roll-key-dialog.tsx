"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { DialogLoading } from "@/components/dialog-loading";
import { onDemand } from "@/components/on-demand";
import { OneTimeKeyDialog } from "@/components/one-time-key-dialog";
import { Button } from "@/components/ui/button";
import type { RollableKey } from "./roll-key-form";

const RollForm = onDemand(() => import("./roll-key-form").then((module) => module.RollForm), <DialogLoading />);

const exactUtc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * Roll (owners): a new value now, shown once; the old one keeps working for the chosen overlap.
 * Rendered for every key that may have been rolled from this page, `rollable` or not: the roll
 * itself makes the key unrollable, and the dialog showing the new value must outlive that render.
 */
export function RollKeyDialog({
  orgId,
  apiKey,
  rollable,
  policyLifetime,
}: {
  orgId: string;
  apiKey: RollableKey;
  rollable: boolean;
  /** The key policy's rule when the old lifetime is outside it, e.g. "Keys expire within 90 days". */
  policyLifetime: string | null;
}) {
  const [oldKeyEnd, setOldKeyEnd] = useState<string | null>(null);
  return (
    <OneTimeKeyDialog
      trigger={
        rollable ? (
          <Button variant="outline" aria-label={`Roll ${apiKey.name}`} {...RollForm.prefetchHandlers}>
            <RefreshCw className="size-4" aria-hidden /> Roll
          </Button>
        ) : null
      }
      intro={(key) => (
        <>
          “{key.name}” has a new value. The old one ({apiKey.hint}){" "}
          {oldKeyEnd && oldKeyEnd <= new Date().toISOString() ? "has stopped working" : `works until ${oldKeyEnd ? exactUtc(oldKeyEnd) : "the overlap ends"}`}.
        </>
      )}
      form={(reveal) => (
        <RollForm
          orgId={orgId}
          apiKey={apiKey}
          policyLifetime={policyLifetime}
          onRolled={(key, endsAt) => {
            setOldKeyEnd(endsAt);
            reveal(key);
          }}
        />
      )}
    />
  );
}
