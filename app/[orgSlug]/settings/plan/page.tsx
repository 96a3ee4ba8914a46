import type { Metadata } from "next";
import { getOrgUsage } from "@/db/queries/api-keys";
import { getPlanChange } from "@/db/queries/organizations";
import { PageHeader } from "@/components/page-header";
import { can, onlyHoldersCan } from "@/lib/authz";
import { PLAN_ORDER, PLANS, rateLimitFor } from "@/lib/plans/catalog";
import { requireOrgAccess } from "@/lib/org-access";
import { PlanClient } from "./plan-client";

export const metadata: Metadata = { title: "Plan" };

export default async function PlanPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug);
  const [usage, lastChange] = await Promise.all([getOrgUsage(membership.orgId), getPlanChange(membership.orgId)]);
  const canManage = can(membership.role, "plan.manage");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Plan"
        description={
          canManage
            ? "Switch plans at any time: the change applies to the very next API request. Downgrading never deletes keys."
            : `${onlyHoldersCan("plan.manage", "change the plan")} Ask an owner of this organization if you need more keys or calls.`
        }
      />
      <PlanClient
        orgId={membership.orgId}
        canManage={canManage}
        current={usage.plan}
        usage={{ activeKeys: usage.activeKeys, callsThisMonth: usage.callsThisMonth }}
        rateLimitPerMinute={rateLimitFor(usage.plan, usage.rateLimitPerMinute)}
        customRateLimit={usage.rateLimitPerMinute}
        plans={PLAN_ORDER.map((plan) => ({ id: plan, ...PLANS[plan] }))}
        lastChange={lastChange}
      />
    </div>
  );
}
