import { Globe } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SSO_DOMAINS_MAX } from "@/core/sso";
import type { SsoDomainView } from "@/lib/sso/overview";
import { AddDomainForm } from "./add-domain-form";
import { CopyableValue } from "./copyable-value";
import { DomainControls } from "./domain-controls";

/** The organization's email domains: each proved by a DNS TXT record, and what to publish for those still pending. */
export function DomainsCard({ orgId, domains }: { orgId: string; domains: SsoDomainView[] }) {
  const full = domains.length >= SSO_DOMAINS_MAX;
  return (
    <Card aria-labelledby="sso-domains-title">
      <CardHeader>
        <CardTitle id="sso-domains-title" className="text-base">
          Email domains
        </CardTitle>
        <CardDescription>
          Prove a domain is yours by publishing a TXT record in its DNS. A domain can be verified by one organization only. Up to {SSO_DOMAINS_MAX}.
        </CardDescription>
      </CardHeader>
      {/* wrap-anywhere: a long domain, record or refusal wraps rather than widening the card past a phone's screen. */}
      <CardContent className="space-y-6 wrap-anywhere">
        <AddDomainForm orgId={orgId} disabledReason={full ? `At most ${SSO_DOMAINS_MAX} domains: remove one first.` : null} />
        {domains.length === 0 ? (
          <EmptyState
            className="py-6"
            icon={<Globe aria-hidden />}
            title="No domains yet"
            titleAs="h3"
            description="Add the domain of your people's email addresses, such as example.com, then publish the TXT record it shows."
          />
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Email domains">
            {domains.map((domain) => (
              <li key={domain.id} className="space-y-3 p-4">
                <DomainRow orgId={orgId} domain={domain} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function DomainRow({ orgId, domain }: { orgId: string; domain: SsoDomainView }) {
  const verified = domain.verifiedAt !== null;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-mono text-sm font-semibold break-all">{domain.domain}</h3>
        <Badge variant={verified ? "success" : "warning"}>{verified ? "Verified" : "Pending"}</Badge>
        <span className="text-xs text-muted-foreground">
          {verified ? "verified" : "added"} <RelativeTime value={verified ? domain.verifiedAt : domain.createdAt} />
        </span>
      </div>
      {verified ? null : (
        <dl className="grid gap-3 md:grid-cols-2">
          <CopyableValue label="TXT record name" value={domain.recordName} />
          <CopyableValue label="TXT record value" value={domain.recordValue} />
        </dl>
      )}
      <DomainControls orgId={orgId} domain={{ id: domain.id, name: domain.domain, verified }} />
    </>
  );
}
