import { KeyRound } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { RecoveryCodesControls } from "./recovery-codes-controls";

/** How many recovery codes are left, rendered on the server; renewing them hydrates. */
export function RecoveryCodesCard({ enabled, left, total }: { enabled: boolean; left: number; total: number }) {
  const low = enabled && left <= 3;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRound className="size-4 text-primary" aria-hidden /> Recovery codes
          {enabled ? <Badge variant={low ? "warning" : "outline"}>{`${left} of ${total} left`}</Badge> : null}
        </CardTitle>
        <CardDescription>
          {enabled
            ? "Each code signs you in once if you lose your phone. Renewing makes ten new codes and ends the old ones."
            : "Recovery codes come with your first authenticator app or passkey: ten single-use codes to sign in with if you lose your device."}
        </CardDescription>
      </CardHeader>
      {enabled ? <RecoveryCodesControls left={left} /> : null}
    </Card>
  );
}
