import { z } from "zod";
import { MODE_VALUES } from "@/core/enums";
import { LOG_STREAM_SOURCE_VALUES } from "@/core/log-streams";
import { commaSeparatedChoices, idSchema, nameSchema, orgIdSchema } from "@/lib/input-rules";
import { destinationSecretsInput, destinationSettingsInput } from "./destinations/input";

/**
 * What the log streams page sends (docs/features/log-streams.md#the-page). The form is flat, one
 * field per input (`site`, `apiKey`, `bucket`, …), so each refusal lands on its own field; the
 * destination's schemas (./destinations/input.ts) read the fields of its kind and the action gets
 * them as `settings` and `secrets`.
 */

export const LOG_STREAM_NAME_MAX = 60;

const sourcesSchema = commaSeparatedChoices(LOG_STREAM_SOURCE_VALUES, {
  unknown: (source) => `"${source}" is not something a stream carries.`,
  none: "Choose at least one of requests, activity and alerts.",
});

const streamFields = z.object({
  orgId: orgIdSchema,
  name: z.preprocess((value) => value ?? "", nameSchema(LOG_STREAM_NAME_MAX, "Name the stream, such as “Datadog audit trail”.")),
  sources: sourcesSchema,
  mode: z.enum(MODE_VALUES, { error: "Choose the live or the test keys' requests." }).default("live"),
});

export const createLogStreamInput = streamFields
  .and(destinationSettingsInput.transform((settings) => ({ settings })))
  .and(destinationSecretsInput.transform((secrets) => ({ secrets })));

export const logStreamInput = z.object({ orgId: orgIdSchema, streamId: idSchema });

export const setLogStreamPausedInput = logStreamInput.extend({
  paused: z.enum(["true", "false"], { error: "Say whether to pause or resume the stream." }).transform((paused) => paused === "true"),
});
