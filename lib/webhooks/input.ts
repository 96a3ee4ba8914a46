import { z } from "zod";
import { MODE_VALUES, WEBHOOK_EVENT_TYPE_VALUES } from "@/core/enums";
import { boundedString, commaSeparatedChoices, CONTROL_CHARACTER, idSchema, NO_CONTROL_CHARACTERS, orgIdSchema } from "@/lib/input-rules";
import { WEBHOOK_URL_MAX, webhookUrlProblem } from "./endpoint-url";

export const WEBHOOK_DESCRIPTION_MAX = 200;

/** An endpoint's event types as the form sends them: comma-separated, each known, at least one. */
const webhookEventTypesSchema = commaSeparatedChoices(WEBHOOK_EVENT_TYPE_VALUES, {
  unknown: (type) => `"${type}" is not an event type.`,
  none: "Choose at least one event.",
});

const urlSchema = (empty: string) =>
  boundedString(WEBHOOK_URL_MAX, `Use at most ${WEBHOOK_URL_MAX} characters.`)
    .trim()
    .min(1, empty)
    .superRefine((url, ctx) => {
      const problem = url ? webhookUrlProblem(url) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

const descriptionSchema = z.preprocess(
  (value) => value ?? "",
  boundedString(WEBHOOK_DESCRIPTION_MAX, `Use at most ${WEBHOOK_DESCRIPTION_MAX} characters.`)
    .trim()
    .refine((text) => !CONTROL_CHARACTER.test(text), NO_CONTROL_CHARACTERS),
);

/** A new endpoint. Where its host resolves is checked by the action, not here. */
export const createWebhookEndpointInput = z.object({
  orgId: orgIdSchema,
  url: urlSchema("Enter the URL that receives the events."),
  description: descriptionSchema,
  eventTypes: webhookEventTypesSchema,
  // Live unless said: a test endpoint receives the events of test keys only (docs/features/test-mode.md#webhooks).
  mode: z.enum(MODE_VALUES, { error: "Choose live or test events." }).default("live"),
});

/** A Slack-compatible incoming-webhook URL and, to tell channels apart, the channel's name. */
export const createSlackChannelInput = z.object({
  orgId: orgIdSchema,
  url: urlSchema("Paste the channel's incoming-webhook URL, such as https://hooks.slack.com/services/…"),
  description: descriptionSchema,
});

export const webhookEndpointInput = z.object({ orgId: orgIdSchema, endpointId: idSchema });
export const setWebhookEndpointEnabledInput = webhookEndpointInput.extend({
  enabled: z.enum(["true", "false"], { error: "Say whether the endpoint is on." }).transform((value) => value === "true"),
});
export const resendWebhookDeliveryInput = z.object({ orgId: orgIdSchema, deliveryId: idSchema });
