import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { ssoRedirectUri } from "@/core/sso";
import { requestOrigin } from "@/lib/base-url";
import { requireOrgAccess } from "@/lib/org-access";
import { ssoOverview } from "@/lib/sso/overview";
import { ConnectionCard } from "./connection-card";
import { DomainsCard } from "./domains-card";
import { RequireSsoCard } from "./require-sso-card";

export const metadata: Metadata = { title: "Single sign-on" };

export default async function SsoPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "sso.manage");
  // The provider sends people back to the dashboard's own address, as this request reached it (lib/base-url.ts).
  const [{ connection, domains }, origin] = await Promise.all([ssoOverview(membership.orgId), requestOrigin()]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Single sign-on"
        description="Connect your organization's OpenID Connect identity provider (Okta, Microsoft Entra ID, Google Workspace, Auth0, Keycloak…) and prove which email domains are yours."
      />
      <ConnectionCard orgId={membership.orgId} connection={connection} redirectUri={ssoRedirectUri(origin)} />
      <DomainsCard orgId={membership.orgId} domains={domains} />
      <RequireSsoCard
        orgId={membership.orgId}
        orgName={membership.orgName}
        required={connection?.requireSso ?? false}
        ready={connection !== null && domains.some((domain) => domain.verifiedAt !== null)}
      />
    </div>
  );
}
