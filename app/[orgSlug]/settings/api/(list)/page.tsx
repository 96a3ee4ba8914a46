import type { Metadata } from "next";
import { getOrgUsage, listApiKeys } from "@/db/queries/api-keys";
import { getKeyPolicy } from "@/db/queries/organizations";
import { ApiQuickstart } from "@/components/api-quickstart";
import { PageHeader } from "@/components/page-header";
import { PlanUsageBanner } from "@/components/plan-usage-banner";
import { can } from "@/lib/authz";
import { publicBaseUrl } from "@/lib/base-url";
import { requireOrgAccess } from "@/lib/org-access";
import { keyLimitReached, PLANS } from "@/lib/plans/catalog";
import { ApiKeysClient } from "./api-keys-client";
import { CreateKeyDialog } from "./create-key-dialog";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "keys.view");
  const [keys, usage, baseUrl, keyPolicy] = await Promise.all([listApiKeys(membership.orgId), getOrgUsage(membership.orgId), publicBaseUrl(), getKeyPolicy(membership.orgId)]);
  const canCreate = can(membership.role, "keys.create");
  const { apiAccess } = PLANS[usage.plan];
  // A server component renders once per request: this is the request's moment, which the client's
  // time-based filters (from the URL) compare with on the server and in hydration alike.
  // eslint-disable-next-line react-hooks/purity
  const renderedAt = Date.now();
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Keys authenticate your servers' calls to the Invoicing API. Treat them like passwords: keep them in environment variables, never in client-side code."
        actions={canCreate && apiAccess ? <CreateKeyDialog orgId={membership.orgId} keyPolicy={keyPolicy} limitReached={keyLimitReached(usage.plan, usage.activeKeys)} /> : null}
      />
      <PlanUsageBanner usage={usage} orgSlug={orgSlug} />
      <ApiKeysClient
        orgId={membership.orgId}
        orgSlug={orgSlug}
        keys={keys}
        keyPolicy={keyPolicy}
        canRoll={can(membership.role, "keys.roll")}
        canCreate={canCreate}
        canRevoke={can(membership.role, "keys.revoke")}
        noApiAccess={!apiAccess}
        renderedAt={renderedAt}
      />
      <ApiQuickstart baseUrl={baseUrl} />
    </div>
  );
}
