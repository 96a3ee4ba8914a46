import "server-only";
import type { z } from "zod";
import { lockAlertSettings, markAlertsRead, setAlertSettings, type AlertSettings } from "@/db/queries/alerts";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import type { alertSettingsInput, markAlertsReadInput } from "@/lib/alerts/input";

/** The bell's "mark as read" (docs/features/alerts.md): the reader's own state, so no history entry. */
export async function markRead({ alertId }: z.output<typeof markAlertsReadInput>, ctx: ActionContext): Promise<Change<{ matched: number }>> {
  const matched = await markAlertsRead(ctx.tx, ctx.orgId, ctx.userId, alertId);
  if (alertId !== "all" && matched === 0) throw new UserFacingError("This alert was not found.");
  return { data: { matched }, personal: true };
}

const SETTING_FIELDS = ["quotaAlertThresholds", "rateLimitAlertThreshold"] as const;

/** The quota thresholds and the burst size, for owners and admins; the entry names what changed. */
export async function changeAlertSettings(
  { quotaAlertThresholds, rateLimitAlertThreshold }: z.output<typeof alertSettingsInput>,
  ctx: ActionContext,
): Promise<Change<AlertSettings>> {
  const { name, ...before } = await lockAlertSettings(ctx.tx, ctx.orgId);
  const after: AlertSettings = { quotaAlertThresholds, rateLimitAlertThreshold };
  // The history's values are plain: the thresholds as "80 %, 90 %, 100 %", none as null ("Off").
  const shown = (settings: AlertSettings) => ({
    quotaAlertThresholds: settings.quotaAlertThresholds.length ? settings.quotaAlertThresholds.map((t) => `${t} %`).join(", ") : null,
    rateLimitAlertThreshold: settings.rateLimitAlertThreshold,
  });
  const changed = SETTING_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  if (changed.length === 0) throw new UserFacingError("The alert settings already say this: nothing to save.");
  await setAlertSettings(ctx.tx, ctx.orgId, after);
  return {
    data: after,
    activity: {
      action: "alert_settings.changed",
      target: { type: "organization", id: ctx.orgId, name },
      before: Object.fromEntries(changed.map((field) => [field, shown(before)[field]])),
      after: Object.fromEntries(changed.map((field) => [field, shown(after)[field]])),
    },
  };
}
