import { Smartphone } from "lucide-react";
import { RelativeTime } from "@/components/relative-time";
import type { SecondFactorMethods } from "@/components/second-factor-fields";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { AuthenticatorAppControls } from "./authenticator-app-controls";
import { TwoFactorStatusBadge } from "./two-factor-status-badge";

/** The authenticator app (TOTP): whether one is added, rendered on the server; its setup and removal hydrate. */
export function AuthenticatorAppCard({ addedAt, methods }: { addedAt: string | null; methods: SecondFactorMethods }) {
  const on = addedAt !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Smartphone className="size-4 text-primary" aria-hidden /> Authenticator app <TwoFactorStatusBadge on={on} />
        </CardTitle>
        <CardDescription>
          {on ? (
            <>
              Added <RelativeTime value={addedAt} />. Sign-in asks for the 6-digit code it shows.
            </>
          ) : (
            "Use an app such as 1Password, Google Authenticator, Microsoft Authenticator or Authy to get a new sign-in code every 30 seconds."
          )}
        </CardDescription>
      </CardHeader>
      <AuthenticatorAppControls on={on} methods={methods} />
    </Card>
  );
}
