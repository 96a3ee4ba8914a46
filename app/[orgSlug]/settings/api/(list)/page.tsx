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
import { TestDataCard } from "./test-data-card";
import { getDb } from "@/db";
import { countTestData } from "@/db/queries/test-data";
import type { Mode } from "@/core/enums";
import { viewModeOf } from "@/lib/view-mode";
import { KeyTable, NoKeys } from "./key-table";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string }>;
  searchParams: Promise<{ status?: string | string[]; sort?: string | string[]; mode?: string | string[] }>;
}) {
  const [{ orgSlug }, query] = await Promise.all([params, searchParams]);
  const { membership } = await requireOrgAccess(orgSlug, "keys.view");
  // The keys of the dashboard's mode (docs/features/test-mode.md#dashboard), and in test mode the test books.
  const mode = viewModeOf(query);
  const [allKeys, usage, baseUrl, keyPolicy, testData] = await Promise.all([
    listApiKeys(membership.orgId),
    getOrgUsage(membership.orgId),
    publicBaseUrl(),
    getKeyPolicy(membership.orgId),
    mode === "test" ? countTestData(getDb(), membership.orgId) : null,
  ]);
  const keys = allKeys.filter((key) => key.mode === mode);
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
              preferredMode={mode}
            />
          ) : null
        }
      />
      <PlanUsageBanner usage={usage} orgSlug={orgSlug} />
      {keys.length === 0 ? (
        <NoKeys message={noKeysMessage(apiAccess, canCreate, mode)} />
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
      {testData ? <TestDataCard orgId={membership.orgId} counts={testData} canDelete={can(membership.role, "test_data.delete")} /> : null}
      <ApiQuickstart baseUrl={baseUrl} />
    </div>
  );
}

function noKeysMessage(apiAccess: boolean, canCreate: boolean, mode: Mode): string {
  if (!apiAccess) return "Your plan has no API access. An owner can switch to Trial, Pro or Enterprise on the Plan page.";
  if (canCreate && mode === "test")
    return "Create a test key with “Create API key” to build and run your integration against test data: nothing it does touches your live invoices or quota.";
  if (canCreate) return "Create your first key with “Create API key”, name it after where it will be used, and copy it into that server's environment.";
  return `${deniedMessage("keys.create")} Ask one of them to create a key for your integration.`;
}
