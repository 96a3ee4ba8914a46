"use client";

import { Check, Minus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { PlanChangeDto } from "@/db/queries/organizations";
import type { Plan } from "@/core/enums";
import { ConfirmFooter } from "@/components/confirm-footer";
import { FormAlert } from "@/components/form-alert";
import { RelativeTime } from "@/components/relative-time";
import { useActionForm } from "@/components/use-action-form";
import { useConfirmAction } from "@/components/use-confirm-action";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { PlanLimits } from "@/lib/plans/catalog";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, ENTERPRISE_RATE_LIMIT_RANGE, PLANS } from "@/lib/plans/catalog";
import { cn } from "@/lib/utils";
import { changePlanAction, setRateLimitAction } from "./actions";

const number = new Intl.NumberFormat("en-US");

function limitText(value: number | null, unit: string): string {
  if (value === null) return `Unlimited ${unit}`;
  if (value === 0) return `No ${unit}`;
  return `${number.format(value)} ${unit}`;
}

function planFeatures(plan: PlanLimits & { id: Plan }): { text: string; included: boolean }[] {
  if (!plan.apiAccess) return [{ text: "No API access", included: false }, { text: "Dashboard only", included: true }];
  return [
    { text: limitText(plan.maxActiveKeys, "active API keys"), included: true },
    { text: `${limitText(plan.monthlyCalls, "API calls")} a month`, included: true },
    { text: plan.customRateLimit ? "Custom rate limit per key" : `${DEFAULT_RATE_LIMIT_PER_MINUTE} requests per minute per key`, included: true },
  ];
}

/** What switching to `target` changes for the organization today, said before it happens. */
function switchConsequences(target: PlanLimits, usage: { activeKeys: number; callsThisMonth: number }): string[] {
  if (!target.apiAccess) {
    return [`The API refuses every key with 403 plan_no_api_access${usage.activeKeys ? ` (your ${usage.activeKeys} active keys are kept, not deleted)` : ""}.`, "No new keys can be created."];
  }
  const lines: string[] = [];
  if (target.maxActiveKeys !== null && usage.activeKeys > target.maxActiveKeys) {
    lines.push(`You have ${usage.activeKeys} active keys and ${target.label} allows ${target.maxActiveKeys}: they all keep working, but no new key can be created until fewer than ${target.maxActiveKeys} are active.`);
  } else {
    lines.push(`${limitText(target.maxActiveKeys, "active API keys")} (${usage.activeKeys} in use).`);
  }
  if (target.monthlyCalls !== null && usage.callsThisMonth >= target.monthlyCalls) {
    lines.push(`This month's ${number.format(usage.callsThisMonth)} calls already use up ${target.label}'s ${number.format(target.monthlyCalls)}: further calls get 429 until next month.`);
  } else {
    lines.push(`${limitText(target.monthlyCalls, "API calls")} a month (${number.format(usage.callsThisMonth)} used this month).`);
  }
  return lines;
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
  const [confirming, setConfirming] = useState<(PlanLimits & { id: Plan }) | null>(null);
  // Either answer closes the dialog: a refusal shows above the plans.
  const { pending, error, run } = useConfirmAction(changePlanAction, {
    onSettled: () => setConfirming(null),
    onSuccess: (data) => toast.success(`Switched to ${PLANS[data.plan].label}`, { description: "The new limits apply from the next API request." }),
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
                  {planFeatures(plan).map((feature) => (
                    <li key={feature.text} className={cn("flex gap-2", !feature.included && "text-muted-foreground")}>
                      {feature.included ? <Check className="size-4 shrink-0 text-primary" aria-hidden /> : <Minus className="size-4 shrink-0" aria-hidden />}
                      {feature.text}
                    </li>
                  ))}
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
                  <Button variant="outline" className="w-full" disabled={pending} onClick={() => setConfirming(plan)}>
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
      <AlertDialog open={confirming !== null} onOpenChange={(open) => !open && !pending && setConfirming(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Switch to {confirming?.label}?</AlertDialogTitle>
            <AlertDialogDescription asChild>
              <div className="space-y-2">
                <p>The change is immediate: the next API request is held to the new limits. No key is deleted.</p>
                <ul className="list-disc space-y-1 pl-5 text-foreground">
                  {confirming ? switchConsequences(confirming, usage).map((line) => <li key={line}>{line}</li>) : null}
                </ul>
              </div>
            </AlertDialogDescription>
          </AlertDialogHeader>
          <ConfirmFooter
            label={`Switch to ${confirming?.label}`}
            pendingLabel="Switching…"
            pending={pending}
            onConfirm={() => confirming && run({ orgId, plan: confirming.id })}
            variant={confirming && !confirming.apiAccess ? "destructive" : "default"}
          />
        </AlertDialogContent>
      </AlertDialog>
      {plans.find((plan) => plan.id === current)?.customRateLimit ? <RateLimitCard orgId={orgId} canManage={canManage} effective={rateLimitPerMinute} custom={customRateLimit} /> : null}
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
