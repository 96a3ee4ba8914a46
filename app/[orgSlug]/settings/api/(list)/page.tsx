import type { Metadata } from "next";
import { getOrgUsage, listApiKeys } from "@/db/queries/api-keys";
import { getKeyPolicy } from "@/db/queries/organizations";
import { ApiQuickstart } from "@/components/api-quickstart";
import { PageHeader } from "@/components/page-header";
import { PlanUsageBanner } from "@/components/plan-usage-banner";
import { can, deniedMessage } from "@/lib/authz";
import { publicBaseUrl } from "@/lib/base-url";
import { requireOrgAccess } from "@/lib/org-access";
import { keyLimitReached, PLANS } from "@/lib/plans/catalog";
import { keyListView } from "@/lib/keys/list-view";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeyTable, NoKeys } from "./key-table";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string }>;
  searchParams: Promise<{ status?: string | string[]; sort?: string | string[] }>;
}) {
  const [{ orgSlug }, query] = await Promise.all([params, searchParams]);
  const { membership } = await requireOrgAccess(orgSlug, "keys.view");
  const [keys, usage, baseUrl, keyPolicy] = await Promise.all([
    listApiKeys(membership.orgId),
    getOrgUsage(membership.orgId),
    publicBaseUrl(),
    getKeyPolicy(membership.orgId),
  ]);
  const canCreate = can(membership.role, "keys.create");
  const { apiAccess } = PLANS[usage.plan];
  // A server component renders once per request: the request's moment, which the time-based filters compare with.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Keys authenticate your servers' calls to the Invoicing API. Treat them like passwords: keep them in environment variables, never in client-side code."
        actions={
          canCreate && apiAccess ? (
            <CreateKeyDialog
              orgId={membership.orgId}
              keyPolicy={keyPolicy}
              limits={{ live: keyLimitReached(usage.plan, "live", usage.activeKeys), test: keyLimitReached(usage.plan, "test", usage.activeTestKeys) }}
            />
          ) : null
        }
      />
      <PlanUsageBanner usage={usage} orgSlug={orgSlug} />
      {keys.length === 0 ? (
        <NoKeys message={noKeysMessage(apiAccess, canCreate)} />
      ) : (
        <KeyTable
          orgId={membership.orgId}
          orgSlug={orgSlug}
          keys={keys}
          view={keyListView(query)}
          now={now}
          keyPolicy={keyPolicy}
          canRevoke={can(membership.role, "keys.revoke")}
          canRoll={can(membership.role, "keys.roll")}
        />
      )}
      <ApiQuickstart baseUrl={baseUrl} />
    </div>
  );
}

function noKeysMessage(apiAccess: boolean, canCreate: boolean): string {
  if (!apiAccess) return "Your plan has no API access. An owner can switch to Trial, Pro or Enterprise on the Plan page.";
  if (canCreate) return "Create your first key with “Create API key”, name it after where it will be used, and copy it into that server's environment.";
  return `${deniedMessage("keys.create")} Ask one of them to create a key for your integration.`;
}
