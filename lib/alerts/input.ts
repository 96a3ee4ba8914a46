import { z } from "zod";
import { QUOTA_ALERT_THRESHOLDS_MAX, RATE_LIMIT_ALERT_THRESHOLD_MAX } from "@/core/enums";
import { boundedString, orgIdSchema } from "@/lib/input-rules";

/**
 * The alert settings as the form sends them: the quota thresholds typed as "80, 90, 100"
 * (whole percents, each once, at most five; none turns quota alerts off) and the number of 429s
 * in five minutes that makes a burst.
 */
export const alertSettingsInput = z.object({
  orgId: orgIdSchema,
  quotaAlertThresholds: z.preprocess(
    (value) => value ?? "",
    boundedString(100, "Use at most five percentages, such as 80, 90, 100.").transform((text, ctx) => {
      const parts = text.split(/[\s,;]+/).filter(Boolean);
      const percents = parts.map((part) => (/^\d{1,3}%?$/.test(part) ? Number.parseInt(part, 10) : Number.NaN));
      const bad = parts.find((_, i) => !(percents[i]! >= 1 && percents[i]! <= 100));
      if (bad !== undefined) ctx.addIssue({ code: "custom", message: `"${bad.slice(0, 20)}" is not a whole percentage from 1 to 100.` });
      else if (new Set(percents).size !== percents.length) ctx.addIssue({ code: "custom", message: "Name each percentage once." });
      else if (percents.length > QUOTA_ALERT_THRESHOLDS_MAX)
        ctx.addIssue({ code: "custom", message: `Use at most ${QUOTA_ALERT_THRESHOLDS_MAX} percentages.` });
      return percents.sort((a, b) => a - b);
    }),
  ),
  rateLimitAlertThreshold: z.coerce
    .number({ error: "Enter a number." })
    .int("Enter a whole number.")
    .min(1, "Use at least 1.")
    .max(RATE_LIMIT_ALERT_THRESHOLD_MAX, `Use at most ${RATE_LIMIT_ALERT_THRESHOLD_MAX.toLocaleString("en-US")}.`),
});

/** The bell's "mark as read": one alert, or every alert of the organization. */
export const markAlertsReadInput = z.object({
  orgId: orgIdSchema,
  alertId: z.union([z.literal("all"), z.coerce.number({ error: "Name an alert." }).int().positive().max(Number.MAX_SAFE_INTEGER)], { error: "Name an alert." }),
});
