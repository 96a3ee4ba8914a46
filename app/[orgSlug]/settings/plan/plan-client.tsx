"use client";

import { Check } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import type { PlanChangeDto } from "@/db/queries/organizations";
import type { Plan } from "@/db/schema";
import { FormAlert } from "@/components/form-alert";
import { RelativeTime } from "@/components/relative-time";
import { useActionForm } from "@/components/use-action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { PlanLimits } from "@/lib/plans";
import { ENTERPRISE_RATE_LIMIT_RANGE } from "@/lib/plans";
import { cn } from "@/lib/utils";
import { changePlanAction, setRateLimitAction } from "./actions";

const number = new Intl.NumberFormat("en-US");

function limitText(value: number | null, unit: string): string {
  if (value === null) return `Unlimited ${unit}`;
  if (value === 0) return `No ${unit}`;
  return `${number.format(value)} ${unit}`;
}

export function PlanClient({
  orgId,
  canManage,
  current,
  usage,
  rateLimitPerMinute,
  customRateLimit,
  plans,
  lastChange,
}: {
  orgId: string;
  canManage: boolean;
  current: Plan;
  usage: { activeKeys: number; callsThisMonth: number };
  rateLimitPerMinute: number;
  customRateLimit: number | null;
  plans: (PlanLimits & { id: Plan })[];
  lastChange: PlanChangeDto | null;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const switchTo = (plan: Plan) =>
    startTransition(async () => {
      setError(null);
      const result = await changePlanAction(null, { orgId, plan });
      if (result.ok) toast.success(`Switched to ${plans.find((p) => p.id === plan)?.label}`, { description: "The new limits apply from the next API request." });
      else setError(result.error);
    });

  return (
    <div className="space-y-6">
      {error ? <FormAlert>{error}</FormAlert> : null}
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
                  <li className="flex gap-2">
                    <Check className="size-4 shrink-0 text-primary" aria-hidden />
                    {plan.apiAccess ? limitText(plan.maxActiveKeys, "active API keys") : "No API access"}
                  </li>
                  <li className="flex gap-2">
                    <Check className="size-4 shrink-0 text-primary" aria-hidden />
                    {plan.apiAccess ? `${limitText(plan.monthlyCalls, "API calls")} a month` : "Dashboard only"}
                  </li>
                  <li className="flex gap-2">
                    <Check className="size-4 shrink-0 text-primary" aria-hidden />
                    {!plan.apiAccess ? "No rate limit needed" : plan.id === "enterprise" ? "Custom rate limit per key" : "60 requests per minute per key"}
                  </li>
                </ul>
                {isCurrent ? (
                  <p className="mt-4 rounded-md bg-muted px-3 py-2 text-sm">
                    This month: <span className="font-medium tabular-nums">{number.format(usage.callsThisMonth)}</span> calls,{" "}
                    <span className="font-medium tabular-nums">{usage.activeKeys}</span> active keys
                  </p>
                ) : null}
              </CardContent>
              {canManage && !isCurrent ? (
                <CardFooter>
                  <Button variant="outline" className="w-full" disabled={pending} onClick={() => switchTo(plan.id)} aria-label={`Switch to ${plan.label}`}>
                    Switch to {plan.label}
                  </Button>
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
      {current === "enterprise" ? <RateLimitCard orgId={orgId} canManage={canManage} effective={rateLimitPerMinute} custom={customRateLimit} /> : null}
    </div>
  );
}

function RateLimitCard({ orgId, canManage, effective, custom }: { orgId: string; canManage: boolean; effective: number; custom: number | null }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(setRateLimitAction, (data) =>
    toast.success(`Rate limit set to ${number.format(data.rateLimitPerMinute)} requests per minute per key`),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Enterprise rate limit</CardTitle>
        <CardDescription>
          Requests per minute allowed for each key. Now: <span className="font-medium text-foreground">{number.format(effective)}</span>
          {custom === null ? " (the default)" : ""}.
        </CardDescription>
      </CardHeader>
      {canManage ? (
        <form onSubmit={onSubmit} noValidate>
          <CardContent className="space-y-4">
            {error && !fieldErrors.rateLimitPerMinute ? <FormAlert>{error}</FormAlert> : null}
            <input type="hidden" name="orgId" value={orgId} />
            <FormField
              label="Requests per minute per key"
              description={`From ${ENTERPRISE_RATE_LIMIT_RANGE.min} to ${number.format(ENTERPRISE_RATE_LIMIT_RANGE.max)}.`}
              error={fieldErrors.rateLimitPerMinute?.[0]}
            >
              <Input name="rateLimitPerMinute" type="number" inputMode="numeric" min={ENTERPRISE_RATE_LIMIT_RANGE.min} max={ENTERPRISE_RATE_LIMIT_RANGE.max} defaultValue={effective} className="max-w-48" />
            </FormField>
          </CardContent>
          <CardFooter className="mt-4">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save rate limit"}
            </Button>
          </CardFooter>
        </form>
      ) : null}
    </Card>
  );
}
