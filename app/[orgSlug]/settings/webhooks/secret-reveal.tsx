"use client";

import { TriangleAlert } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** A signing secret the server has just made: shown once, to copy into the receiver's configuration. */
export function SecretReveal({ secret, note }: { secret: string; note?: string }) {
  return (
    <div className="grid gap-3">
      <div className="space-y-2">
        <Label htmlFor="webhook-signing-secret">Signing secret</Label>
        <div className="flex gap-2">
          <Input id="webhook-signing-secret" readOnly value={secret} className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={secret} label="Copy" showLabel />
        </div>
      </div>
      <Alert variant="warning">
        <TriangleAlert className="size-4" aria-hidden />
        <AlertTitle>This secret will not be shown again</AlertTitle>
        <AlertDescription>
          Verify each delivery&apos;s <code>webhook-signature</code> with it (any Standard Webhooks library does). {note ?? "If you lose it, rotate the secret."}
        </AlertDescription>
      </Alert>
    </div>
  );
}
