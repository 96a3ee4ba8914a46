import { Fingerprint } from "lucide-react";
import { RelativeTime } from "@/components/relative-time";
import type { SecondFactorMethods } from "@/components/second-factor-fields";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PasskeysControls, RemovePasskeyDialog } from "./passkeys-controls";
import type { PasskeyRow } from "./remove-passkey-form";
import { TwoFactorStatusBadge } from "./two-factor-status-badge";

/** The person's passkeys, listed on the server; adding and removing one hydrate (./passkeys-controls.tsx). */
export function PasskeysCard({ passkeys, methods }: { passkeys: PasskeyRow[]; methods: SecondFactorMethods }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Fingerprint className="size-4 text-primary" aria-hidden /> Passkeys <TwoFactorStatusBadge on={passkeys.length > 0} />
        </CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face, screen lock or a security key instead of typing a code. A passkey works only on this site, so a look-alike site
          cannot use it.
        </CardDescription>
      </CardHeader>
      <PasskeysControls hasPasskeys={passkeys.length > 0}>
        {passkeys.length > 0 ? (
          <CardContent>
            <ul aria-label="Your passkeys" className="divide-y rounded-md border">
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{passkey.name}</p>
                    <p className="text-sm text-muted-foreground">
                      Added <RelativeTime value={passkey.createdAt} /> ·{" "}
                      {passkey.lastUsedAt ? (
                        <>
                          Last used <RelativeTime value={passkey.lastUsedAt} />
                        </>
                      ) : (
                        "Never used"
                      )}
                    </p>
                  </div>
                  <RemovePasskeyDialog passkey={passkey} methods={methods} />
                </li>
              ))}
            </ul>
          </CardContent>
        ) : null}
      </PasskeysControls>
    </Card>
  );
}
