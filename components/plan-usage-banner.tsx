import { ArrowUpRight, Gauge, KeyRound } from "lucide-react";
import Link from "next/link";
import type { OrgUsageDto } from "@/db/queries/api-keys";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { UsageMeter, usageLevel } from "@/components/usage-meter";
import { PLANS, plansWith } from "@/lib/plans/catalog";
import { cn } from "@/lib/utils";

const number = new Intl.NumberFormat("en-US");

/** Plan, keys used / allowed and calls this month / quota (docs/features/dashboard.md). */
export function PlanUsageBanner({ usage, orgSlug }: { usage: OrgUsageDto; orgSlug: string }) {
  const plan = PLANS[usage.plan];
  if (!plan.apiAccess) {
    return (
      <Card className="border-warning/40 bg-warning/5">
        <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="font-medium">Your plan has no API access</p>
            <p className="text-sm text-muted-foreground">
              The {plan.label} plan is for the dashboard only; existing keys are refused by the API. API access comes with {plansWith("apiAccess")}.
            </p>
          </div>
          <Link prefetch={false} href={`/${orgSlug}/settings/plan`} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            Compare plans <ArrowUpRight className="size-4" aria-hidden />
          </Link>
        </CardContent>
      </Card>
    );
  }
  const quota = plan.monthlyCalls;
  const share = quota ? Math.min(100, (usage.callsThisMonth / quota) * 100) : 0;
  const level = quota === null ? null : usageLevel(usage.callsThisMonth, quota);
  return (
    <Card className={cn(level === "near" && "border-warning/50 bg-warning/5", level === "used-up" && "border-destructive/40 bg-destructive/5")}>
      <CardContent className="grid gap-6 sm:grid-cols-[auto_1fr_1.4fr] sm:items-center">
        <div className="space-y-1">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Plan</p>
          <div className="flex items-center gap-2">
            <span className="text-lg font-semibold">{plan.label}</span>
            <Link prefetch={false} href={`/${orgSlug}/settings/plan`} className="text-sm text-primary hover:underline">
              Change
            </Link>
          </div>
        </div>
        <div className="space-y-1">
          <p className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
            <KeyRound className="size-3.5" aria-hidden /> Active live keys
          </p>
          <p className="text-lg font-semibold tabular-nums">
            {usage.activeKeys}
            <span className="text-sm font-normal text-muted-foreground"> / {plan.maxActiveKeys === null ? "Unlimited" : plan.maxActiveKeys}</span>
          </p>
        </div>
        <div className="space-y-2">
          <div className="flex items-baseline justify-between gap-2">
            <p className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
              <Gauge className="size-3.5" aria-hidden /> API calls this month
            </p>
            {level ? (
              <Badge variant={level === "used-up" ? "destructive" : "warning"}>{level === "used-up" ? "Quota used up" : `${Math.floor(share)} % used`}</Badge>
            ) : null}
          </div>
          <p className="text-lg font-semibold tabular-nums">
            {number.format(usage.callsThisMonth)}
            <span className="text-sm font-normal text-muted-foreground"> / {quota === null ? "Unlimited" : number.format(quota)}</span>
          </p>
          {quota !== null ? (
            <UsageMeter
              used={usage.callsThisMonth}
              limit={quota}
              label={`${number.format(usage.callsThisMonth)} of ${number.format(quota)} API calls used this month`}
            />
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
