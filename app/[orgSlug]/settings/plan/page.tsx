import { Check, Minus } from "lucide-react";
import type { Metadata } from "next";
import { getOrgUsage } from "@/db/queries/api-keys";
import { getPlanChange } from "@/db/queries/organizations";
import { PageHeader } from "@/components/page-header";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { can, onlyHoldersCan } from "@/lib/authz";
import { PLAN_ORDER, PLANS, rateLimitFor } from "@/lib/plans/catalog";
import { requireOrgAccess } from "@/lib/org-access";
import { cn } from "@/lib/utils";
import { PlanChooser, PlanSwitchButton } from "./plan-chooser";
import { number, planFeatures } from "./plan-facts";
import { RateLimitCard } from "./rate-limit-card";

export const metadata: Metadata = { title: "Plan" };

/** The plans side by side, rendered on the server: only "Switch to …" and its confirmation hydrate (./plan-chooser.tsx). */
export default async function PlanPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug);
  const [usage, lastChange] = await Promise.all([getOrgUsage(membership.orgId), getPlanChange(membership.orgId)]);
  const canManage = can(membership.role, "plan.manage");
  const current = usage.plan;
  const plans = PLAN_ORDER.map((plan) => ({ id: plan, ...PLANS[plan] }));
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
      <div className="space-y-6">
        <PlanChooser orgId={membership.orgId} usage={{ activeKeys: usage.activeKeys, callsThisMonth: usage.callsThisMonth }}>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {plans.map((plan) => {
              const isCurrent = plan.id === current;
              return (
                <Card key={plan.id} className={cn("relative", isCurrent && "border-primary ring-1 ring-primary")} aria-current={isCurrent ? "true" : undefined}>
                  <CardHeader>
                    <CardTitle className="flex items-center justify-between gap-2">
                      {plan.label}
                      {isCurrent ? <Badge>Current plan</Badge> : null}
                    </CardTitle>
                    <CardDescription>{plan.description}</CardDescription>
                  </CardHeader>
                  <CardContent className="flex-1">
                    <ul className="space-y-2 text-sm">
                      {planFeatures(plan).map((feature) => (
                        <li key={feature.text} className={cn("flex gap-2", !feature.included && "text-muted-foreground")}>
                          {feature.included ? (
                            <Check className="size-4 shrink-0 text-primary" aria-hidden />
                          ) : (
                            <Minus className="size-4 shrink-0" aria-hidden />
                          )}
                          {feature.text}
                        </li>
                      ))}
                    </ul>
                    {isCurrent ? (
                      <p className="mt-4 rounded-md bg-muted px-3 py-2 text-sm">
                        This month: <span className="font-medium tabular-nums">{number.format(usage.callsThisMonth)}</span> calls,{" "}
                        <span className="font-medium tabular-nums">{usage.activeKeys}</span> active live keys
                      </p>
                    ) : null}
                  </CardContent>
                  {canManage && !isCurrent ? (
                    <CardFooter>
                      <PlanSwitchButton plan={plan} />
                    </CardFooter>
                  ) : null}
                </Card>
              );
            })}
          </div>
          {lastChange ? (
            <p className="text-sm text-muted-foreground">
              Plan last changed <RelativeTime value={lastChange.at} /> by {lastChange.byName ?? "a former member"}.
            </p>
          ) : null}
        </PlanChooser>
        {PLANS[current].customRateLimit ? (
          <RateLimitCard
            orgId={membership.orgId}
            canManage={canManage}
            effective={rateLimitFor(current, usage.rateLimitPerMinute)}
            custom={usage.rateLimitPerMinute}
          />
        ) : null}
      </div>
    </div>
  );
}
