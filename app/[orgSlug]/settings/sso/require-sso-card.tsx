import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { RequireSsoSwitch } from "./require-sso-switch";

/** "Require SSO": whether members and admins may still come in with a password, and the switch, once a provider and a verified domain exist. */
export function RequireSsoCard({ orgId, orgName, required, ready }: { orgId: string; orgName: string; required: boolean; ready: boolean }) {
  return (
    <Card aria-labelledby="require-sso-title">
      <CardHeader>
        <CardTitle id="require-sso-title" className="flex items-center gap-2 text-base">
          Require SSO
          <Badge variant={required ? "default" : "secondary"}>{required ? "On" : "Off"}</Badge>
        </CardTitle>
        <CardDescription>
          {required
            ? `Admins, members and guests reach ${orgName} only after signing in through the identity provider. Owners can still use their password and second factor, as a way back in.`
            : ready
              ? `Everyone may sign in with a password or through the identity provider. Require the provider to manage access in one place.`
              : "Set up the identity provider and verify an email domain first."}
        </CardDescription>
      </CardHeader>
      {ready || required ? (
        <CardContent>
          <RequireSsoSwitch orgId={orgId} orgName={orgName} required={required} />
        </CardContent>
      ) : null}
    </Card>
  );
}
