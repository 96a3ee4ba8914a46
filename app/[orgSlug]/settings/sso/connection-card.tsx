import { KeySquare } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Fact } from "@/components/fact";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { SsoConnectionDto } from "@/db/queries/sso-settings";
import { ROLE_INFO } from "@/lib/roles";
import { ChangeConnectionDialog } from "./change-connection-dialog";
import { ConnectionForm } from "./connection-form";
import { CopyableValue } from "./copyable-value";
import { RemoveConnection } from "./remove-connection";

/** The organization's identity provider: how to set one up, or the one saved (its secret only by its last characters). */
export function ConnectionCard({ orgId, connection, redirectUri }: { orgId: string; connection: SsoConnectionDto | null; redirectUri: string }) {
  return (
    <Card aria-labelledby="sso-connection-title">
      <CardHeader>
        <CardTitle id="sso-connection-title" className="text-base">
          Identity provider
        </CardTitle>
        <CardDescription>One OpenID Connect provider per organization, checked against its discovery document when saved.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {connection ? (
          <SavedConnection orgId={orgId} connection={connection} redirectUri={redirectUri} />
        ) : (
          <>
            <EmptyState
              className="py-6"
              icon={<KeySquare aria-hidden />}
              title="No provider yet"
              description="At your provider, create a web application (OpenID Connect, authorization code) and register the redirect URI below. Then enter the issuer, client ID and client secret it gives you."
            />
            <dl>
              <CopyableValue label="Redirect URI" value={redirectUri} />
            </dl>
            <ConnectionForm orgId={orgId} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SavedConnection({ orgId, connection, redirectUri }: { orgId: string; connection: SsoConnectionDto; redirectUri: string }) {
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact term="Issuer">
          <span className="font-mono text-xs break-all">{connection.issuer}</span>
        </Fact>
        <Fact term="Client ID">
          <span className="font-mono text-xs break-all">{connection.clientId}</span>
        </Fact>
        <Fact term="Client secret">
          <span className="font-mono text-xs">{connection.secretHint}</span>
        </Fact>
        <Fact term="Role on first sign-in">{ROLE_INFO[connection.defaultRole].label}</Fact>
        <Fact term="Saved">
          <RelativeTime value={connection.updatedAt} />
          {connection.createdByName ? <span className="text-muted-foreground"> · set up by {connection.createdByName}</span> : null}
        </Fact>
        <CopyableValue label="Redirect URI" value={redirectUri} />
      </dl>
      <div className="flex flex-wrap gap-2">
        <ChangeConnectionDialog orgId={orgId} connection={{ issuer: connection.issuer, clientId: connection.clientId, defaultRole: connection.defaultRole }} />
        <RemoveConnection orgId={orgId} issuer={connection.issuer} />
      </div>
    </>
  );
}
