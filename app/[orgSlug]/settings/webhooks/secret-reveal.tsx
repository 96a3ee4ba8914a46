"use client";

import { OneTimeSecret } from "@/components/one-time-secret";

/** A signing secret the server has just made: shown once, to copy into the receiver's configuration. */
export function SecretReveal({ secret, note }: { secret: string; note?: string }) {
  return (
    <div className="grid gap-3">
      <OneTimeSecret id="webhook-signing-secret" label="Signing secret" value={secret} warning="This secret will not be shown again">
        <p>
          Verify each delivery&apos;s <code>webhook-signature</code> with it (any Standard Webhooks library does).{" "}
          {note ?? "If you lose it, rotate the secret."}
        </p>
      </OneTimeSecret>
    </div>
  );
}
