"use client";

import { BellRing } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { KEY_EXPIRING_ALERT_DAYS, RATE_LIMIT_ALERT_MINUTES } from "@/core/enums";
import type { AlertSettings } from "@/db/queries/alerts";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { holdersOf, onlyHoldersCan } from "@/lib/authz";
import { setAlertSettingsAction } from "./actions";

const thresholdsText = (thresholds: number[]) => thresholds.join(", ");

/** The alert settings (docs/features/alerts.md): editable by owners and admins, shown to members. */
export function AlertSettingsForm({ orgId, settings, canManage, quota }: { orgId: string; settings: AlertSettings; canManage: boolean; quota: number | null }) {
  const [thresholds, setThresholds] = useState(thresholdsText(settings.quotaAlertThresholds));
  const [burst, setBurst] = useState(String(settings.rateLimitAlertThreshold));
  const { pending, onSubmit, error, fieldErrors } = useActionForm(setAlertSettingsAction, (saved) =>
    toast.success("Alert settings saved", {
      description: saved.quotaAlertThresholds.length
        ? `Quota alerts at ${saved.quotaAlertThresholds.map((t) => `${t} %`).join(", ")}.`
        : "Quota alerts are off.",
    }),
  );
  const unchanged = thresholds.trim() === thresholdsText(settings.quotaAlertThresholds) && burst.trim() === String(settings.rateLimitAlertThreshold);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <BellRing className="size-4 text-primary" aria-hidden /> When to alert
        </CardTitle>
        <CardDescription>
          Alerts appear under the bell for {holdersOf("alerts.view")}. Keys expiring within {KEY_EXPIRING_ALERT_DAYS} days, expired keys, and keys reaching 80 %
          and 100 % of their budget always raise one.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid items-start gap-5 sm:grid-cols-2">
          {error && !fieldErrors.quotaAlertThresholds && !fieldErrors.rateLimitAlertThreshold ? (
            <div className="sm:col-span-2">
              <FormAlert>{error}</FormAlert>
            </div>
          ) : null}
          <input type="hidden" name="orgId" value={orgId} />
          <FormField
            label="Quota thresholds (%)"
            error={fieldErrors.quotaAlertThresholds?.[0]}
            description={
              quota === null
                ? "Your plan has no monthly quota, so these do not fire now. Up to 5 whole percentages; empty turns quota alerts off."
                : "Each fires once a month when the organization's calls reach it. Up to 5 whole percentages; empty turns quota alerts off."
            }
          >
            <Input
              name="quotaAlertThresholds"
              value={thresholds}
              onChange={(event) => setThresholds(event.target.value)}
              disabled={!canManage}
              placeholder="80, 90, 100"
              inputMode="numeric"
            />
          </FormField>
          <FormField
            label={`Rate-limit burst (refusals in ${RATE_LIMIT_ALERT_MINUTES} minutes)`}
            error={fieldErrors.rateLimitAlertThreshold?.[0]}
            description={`A key refused with 429 more often than this within ${RATE_LIMIT_ALERT_MINUTES} minutes raises an alert, at most once an hour per key.`}
          >
            <Input
              name="rateLimitAlertThreshold"
              type="number"
              min={1}
              value={burst}
              onChange={(event) => setBurst(event.target.value)}
              disabled={!canManage}
              inputMode="numeric"
            />
          </FormField>
        </CardContent>
        <CardFooter className="mt-5 flex justify-end">
          {canManage ? (
            <Button type="submit" disabled={pending || unchanged}>
              {pending ? "Saving…" : "Save alert settings"}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">{onlyHoldersCan("notifications.manage", "change the alert settings")}</p>
          )}
        </CardFooter>
      </form>
    </Card>
  );
}
