import type { Metadata } from "next";
import { listActivity } from "@/db/queries/activity";
import { listApiKeys } from "@/db/queries/api-keys";
import { getKeyPolicy, securitySettings } from "@/db/queries/organizations";
import { PageHeader } from "@/components/page-header";
import { can } from "@/lib/authz";
import { requireOrgAccess } from "@/lib/org-access";
import { KeyPolicyForm } from "./key-policy-form";
import { LeakedKeysCard } from "./leaked-keys-card";

export const metadata: Metadata = { title: "Key policy" };

export default async function KeyPolicyPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "keys.view");
  const [keyPolicy, { leakedKeyResponse: leakResponse }, keys, lastChange] = await Promise.all([
    getKeyPolicy(membership.orgId),
    securitySettings(membership.orgId),
    listApiKeys(membership.orgId),
    can(membership.role, "activity.view") ? listActivity(membership.orgId, { action: "key_policy.changed" }, { pageSize: 1 }) : null,
  ]);
  const canManage = can(membership.role, "keys.policy");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Key policy"
        description="How long the API keys of this organization may live. The policy applies to keys created or rolled from now on; keys made before it keep working and are marked in the list with what to do."
      />
      <KeyPolicyForm
        orgId={membership.orgId}
        orgSlug={orgSlug}
        keyPolicy={keyPolicy}
        canManage={canManage}
        // Only what the preview needs: which keys in service a draft policy would mark.
        keys={keys.map(({ status, replacedBy, createdAt, expiresAt }) => ({ status, replacedBy: replacedBy !== null, createdAt, expiresAt }))}
        lastChange={lastChange?.rows[0] ? { at: lastChange.rows[0].createdAt, byName: lastChange.rows[0].actorName } : null}
      />
      {/* The saved choice keys the card, so a save from another tab starts it afresh. */}
      <LeakedKeysCard key={leakResponse} orgId={membership.orgId} response={leakResponse} canManage={can(membership.role, "security.manage")} />
    </div>
  );
}
