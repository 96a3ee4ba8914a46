import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import type { Plan } from "@/core/enums";
import { getKeyUsage, listRecentCalls } from "@/db/queries/key-usage";
import { listActivity } from "@/db/queries/activity";
import { keyLatency } from "@/lib/usage/report";
import { getKeyPolicy } from "@/db/queries/organizations";
import { NoRequests } from "@/components/no-requests";
import { PageHeader } from "@/components/page-header";
import { auditSearchParams } from "@/lib/audit-filters";
import { can } from "@/lib/authz";
import { describeKeyPolicy, keyOutsidePolicy } from "@/lib/keys/policy";
import { publicBaseUrl } from "@/lib/base-url";
import { PLANS } from "@/lib/plans/catalog";
import { RevokeKeyDialog } from "../../revoke-key-dialog";
import { RollKeyDialog } from "../../roll-key-dialog";
import { findKey } from "./find-key";
import { EditAccessDialog } from "./edit-access-dialog";
import { KeyAccess } from "./key-access";
import { KeyBudget } from "./key-budget";
import { RenameKeyDialog } from "./rename-key-dialog";
import { calendarDay, KeyFacts, OutsidePolicyNotice, OverlapNotice } from "./key-facts";
import { KeyHistory } from "./key-history";
import { DailyLatency, DailyRequests, RecentCalls, StatusCodes, TopEndpoints, UsageSummary } from "./key-usage-sections";

export const metadata: Metadata = { title: "API key usage" };

const KEY_HISTORY_ENTRIES = 20;

export default async function KeyDetailsPage({ params }: { params: Promise<{ orgSlug: string; keyId: string }> }) {
  const { orgSlug, keyId } = await params;
  const { membership, apiKey } = await findKey(orgSlug, keyId);
  const mayReadHistory = can(membership.role, "activity.view");
  const usage = await getKeyUsage(membership.orgId, keyId);
  const [latency, calls, baseUrl, history, keyPolicy] = await Promise.all([
    keyLatency({ orgId: membership.orgId, mode: apiKey.mode }, keyId, usage.from, usage.to),
    listRecentCalls(membership.orgId, keyId),
    publicBaseUrl(),
    mayReadHistory ? listActivity(membership.orgId, { key: keyId }, { pageSize: KEY_HISTORY_ENTRIES }) : null,
    getKeyPolicy(membership.orgId),
  ]);
  const outsidePolicy = keyOutsidePolicy(keyPolicy, apiKey);
  // An expired key can still be revoked: a revocation records that a person ended it.
  const canRevoke = can(membership.role, "keys.revoke") && apiKey.status !== "revoked";
  // A revoked key keeps its name, so its history and requests read as they happened.
  const canRename = can(membership.role, "keys.rename") && apiKey.status !== "revoked";
  const canRestrict = can(membership.role, "keys.restrict") && apiKey.status !== "revoked";
  // The budget is set in the same dialog as the access (docs/features/key-budgets.md), which needs both permissions.
  const canSetBudget = canRestrict && can(membership.role, "keys.budget");
  const mayRoll = can(membership.role, "keys.roll") && apiKey.status !== "revoked" && PLANS[membership.plan].apiAccess;
  const canRoll = mayRoll && apiKey.status === "active" && !apiKey.replacedBy;
  const auditHref = can(membership.role, "audit.view")
    ? `/${orgSlug}/settings/api/audit?${auditSearchParams({ key: apiKey.id, mode: apiKey.mode === "test" ? "test" : undefined })}`
    : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={apiKey.name}
        description={`Usage over the last 30 days (UTC), ${calendarDay(usage.from)} to ${calendarDay(usage.to)}, today included.`}
        actions={
          canRename || mayRoll || canRevoke ? (
            <>
              {canRename ? <RenameKeyDialog orgId={membership.orgId} apiKey={apiKey} /> : null}
              {mayRoll ? (
                <RollKeyDialog
                  orgId={membership.orgId}
                  apiKey={apiKey}
                  rollable={canRoll}
                  policyLifetime={outsidePolicy ? describeKeyPolicy(keyPolicy) : null}
                />
              ) : null}
              {canRevoke ? <RevokeKeyDialog orgId={membership.orgId} apiKey={apiKey} size="default" /> : null}
            </>
          ) : null
        }
      >
        <Link href={`/${orgSlug}/settings/api`} className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden /> API keys
        </Link>
      </PageHeader>
      {apiKey.replacedBy && apiKey.status === "active" ? <OverlapNotice orgSlug={orgSlug} apiKey={apiKey} replacedBy={apiKey.replacedBy} /> : null}
      {outsidePolicy ? <OutsidePolicyNotice orgSlug={orgSlug} reason={outsidePolicy} mayRoll={can(membership.role, "keys.roll")} /> : null}
      <KeyFacts orgSlug={orgSlug} apiKey={apiKey} />
      <KeyBudget budget={apiKey.budget} editor={canSetBudget ? <EditAccessDialog orgId={membership.orgId} apiKey={apiKey} label="Edit budget" /> : null} />
      <KeyAccess apiKey={apiKey} editor={canRestrict ? <EditAccessDialog orgId={membership.orgId} apiKey={apiKey} /> : null} />
      {usage.total === 0 ? (
        <NoRequests
          title="No requests in the last 30 days"
          description={noRequestsAdvice(apiKey, membership.plan)}
          baseUrl={apiKey.status === "active" && PLANS[membership.plan].apiAccess ? baseUrl : null}
          quickstartTitle="Make your first call with this key"
        />
      ) : (
        <>
          <UsageSummary usage={usage} />
          <DailyRequests usage={usage} />
          <DailyLatency latency={latency} />
          <StatusCodes usage={usage} />
          <TopEndpoints usage={usage} latency={latency.endpoints} />
        </>
      )}
      {calls.length > 0 ? (
        <RecentCalls calls={calls} auditHref={auditHref} orgSlug={can(membership.role, "requests.inspect") ? orgSlug : null} mode={apiKey.mode} />
      ) : null}
      {history ? <KeyHistory orgSlug={orgSlug} keyId={keyId} history={history} /> : null}
    </div>
  );
}

function noRequestsAdvice(apiKey: ApiKeyDto, plan: Plan): string {
  if (apiKey.status === "revoked") return "This key is revoked, so it cannot make calls any more. Its older history stays in the audit log.";
  if (apiKey.status === "expired")
    return "This key has expired, so calls with it are refused with 401 api_key_expired. Create a new key for the clients that used it.";
  if (!PLANS[plan].apiAccess)
    return `The ${PLANS[plan].label} plan has no API access, so calls with this key are refused. An owner can change the plan on the Plan page.`;
  return "Here is how to make your first call: send this key in the X-API-Key header, as in the example below. Requests show up here within seconds.";
}
