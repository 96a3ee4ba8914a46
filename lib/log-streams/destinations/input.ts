import { z } from "zod";
import { DATADOG_SITES } from "@/core/log-streams";
import { boundedString } from "@/lib/input-rules";
import { WEBHOOK_URL_MAX, webhookUrlProblem } from "@/lib/webhooks/endpoint-url";
import type { DestinationSecrets, DestinationSettings } from "./destination";
import { headersSchema } from "./input-headers";

/**
 * What a stream's destination may be (docs/features/log-streams.md#destinations): one schema per
 * kind for its settings and one for its secrets, which the form, the server action and the tests
 * share. Where a host resolves is not checked here: the action asks the SSRF guard, as it does for
 * a webhook endpoint, and every delivery asks again.
 */

/** A form leaves an optional field empty: it is null in the settings. */
const blankAsNull = (value: unknown) => (value === undefined || (typeof value === "string" && value.trim() === "") ? null : value);

/**
 * A URL by the webhooks' rules (HTTPS; plain http only to localhost while developing), with an
 * example of what this field wants, and credentials sent apart, never in the URL.
 */
function urlSchema(example: string, empty: string) {
  return boundedString(WEBHOOK_URL_MAX)
    .trim()
    .min(1, empty)
    .superRefine((url, ctx) => {
      const problem = webhookUrlProblem(url);
      if (!problem) return;
      let message = problem;
      if (problem.startsWith("Enter a full URL")) message = `Enter a full URL, such as ${example}.`;
      else if (problem.startsWith("Remove the user name"))
        message = "Remove the user name and password from the URL: the stream's credentials have fields of their own.";
      ctx.addIssue({ code: "custom", message });
    });
}

const optionalUrl = (example: string) => z.preprocess(blankAsNull, urlSchema(example, "Enter a URL.").nullable());

/** A secret pasted from another tool: no spaces or control characters, within a length. */
function pastedSecret(name: string, min: number, max: number) {
  return boundedString(max, `That is too long for ${name}.`)
    .trim()
    .min(1, `Paste ${name}.`)
    .min(min, `That is too short for ${name}.`)
    .regex(/^[\x21-\x7e]+$/, `Paste ${name} without spaces or other characters around it.`);
}

/** General purpose bucket names (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html). */
export function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return "A bucket's name is 3 to 63 characters long.";
  if (!/^[a-z0-9.-]+$/.test(name)) return "A bucket's name has lowercase letters, digits, dots and hyphens only.";
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return "A bucket's name begins and ends with a letter or a digit.";
  if (name.includes("..")) return "A bucket's name has no two dots in a row.";
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return "A bucket's name is not an IP address.";
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(name) || /(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(name))
    return "That name is reserved by S3: check the bucket's name.";
  return null;
}

/** An AWS region (`us-east-1`, `us-gov-west-1`); another service names its own (`auto`, `nyc3`, `us-west-004`). */
const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const ANY_REGION = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** An object key's prefix: S3's safe characters (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html), folders between slashes. */
const PREFIX_MAX = 512;
function prefixProblem(prefix: string): string | null {
  if (!/^[0-9A-Za-z!_.*'()/-]*$/.test(prefix)) return "Use letters, digits and ! - _ . * ' ( ) in the prefix, with / between folders.";
  if (prefix.split("/").some((folder) => folder === "" || folder === "." || folder === ".."))
    return "Write the prefix as folders between single slashes, without . or .. folders.";
  return null;
}

const prefixSchema = z.preprocess(
  (value) => blankAsNull(typeof value === "string" ? value.trim().replace(/^\/+|\/+$/g, "") : value),
  boundedString(PREFIX_MAX)
    .superRefine((prefix, ctx) => {
      const problem = prefixProblem(prefix);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable(),
);

const s3Settings = z
  .object({
    kind: z.literal("s3"),
    bucket: boundedString(63)
      .trim()
      .min(1, "Enter the bucket's name.")
      .superRefine((name, ctx) => {
        const problem = bucketNameProblem(name);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    region: boundedString(64).trim().toLowerCase().min(1, "Enter the bucket's region, such as us-east-1."),
    endpoint: optionalUrl("https://<account>.r2.cloudflarestorage.com"),
    prefix: prefixSchema,
  })
  .superRefine((settings, ctx) => {
    const valid = settings.endpoint ? ANY_REGION.test(settings.region) : AWS_REGION.test(settings.region);
    const message = settings.endpoint ? "Enter the region the service names, such as us-east-1 or auto." : "Enter the bucket's AWS region, such as us-east-1.";
    if (settings.region && !valid) ctx.addIssue({ code: "custom", path: ["region"], message });
  });

export const destinationSettingsInput = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("datadog"),
      site: z.enum(DATADOG_SITES, { error: "Choose your Datadog site." }),
      intakeUrl: optionalUrl("https://http-intake.logs.datadoghq.com/api/v2/logs"),
    }),
    z.object({ kind: z.literal("splunk"), url: urlSchema("https://splunk.example.com:8088", "Enter the HTTP Event Collector's URL.") }),
    s3Settings,
    z.object({ kind: z.literal("https"), url: urlSchema("https://example.com/log-events", "Enter the URL that receives the events.") }),
    z.object({ kind: z.literal("otlp"), endpoint: urlSchema("https://otel.example.com:4318", "Enter the collector's OTLP/HTTP endpoint.") }),
  ],
  { error: "Choose where the stream sends its events." },
) satisfies z.ZodType<DestinationSettings>;

export const destinationSecretsInput = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("datadog"),
      // Datadog's API keys are 32 hexadecimal characters; an application key (40) is refused by the intake.
      apiKey: pastedSecret("the API key", 1, 64).regex(/^[0-9a-f]{32}$/i, "A Datadog API key is 32 characters, 0–9 and a–f (an application key is longer)."),
    }),
    z.object({ kind: z.literal("splunk"), token: pastedSecret("the HEC token", 8, 256) }),
    z.object({ kind: z.literal("s3"), accessKeyId: pastedSecret("the access key ID", 3, 128), secretAccessKey: pastedSecret("the secret access key", 8, 256) }),
    z.object({
      kind: z.literal("https"),
      signingSecret: boundedString(100).regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, "A signing secret is whsec_ and base64."),
    }),
    z.object({ kind: z.literal("otlp"), headers: headersSchema }),
  ],
  { error: "Choose where the stream sends its events." },
) satisfies z.ZodType<DestinationSecrets>;
