import { z } from "zod";
import { ENTERPRISE_RATE_LIMIT_RANGE } from "./plans";

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Characters as a person counts them: an emoji or a CJK ideograph is one. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of graphemes.segment(value)) count++;
  return count;
}

export const API_KEY_NAME_MAX = 100;
const CONTROL_CHARACTER = /\p{Cc}/u;

export const apiKeyNameSchema = z
  .string({ error: "Enter a name for the key." })
  .trim()
  .min(1, "Enter a name for the key.")
  .refine((name) => characterCount(name) <= API_KEY_NAME_MAX, `Use at most ${API_KEY_NAME_MAX} characters.`)
  .refine((name) => !CONTROL_CHARACTER.test(name), "Remove control characters such as tabs or line breaks.");

const GENERIC_NAMES = new Set(["test", "testing", "api key", "apikey", "api-key", "api_key", "key", "my key", "new key", "default", "api"]);

/** SPEC §3: names that say nothing are accepted, with this suggestion. */
export function genericNameWarning(name: string): string | null {
  const normalized = name.trim().toLowerCase().replace(/\s+/g, " ");
  if (!normalized) return null;
  if (/^\d+$/.test(normalized) || GENERIC_NAMES.has(normalized)) {
    return 'This name does not say where the key is used. Try its purpose or location, e.g. "Production billing server", "Staging" or "iOS app".';
  }
  return null;
}

export const orgIdSchema = z.string().min(1).max(64);

export const createApiKeyInput = z.object({ orgId: orgIdSchema, name: apiKeyNameSchema });
export const revokeApiKeyInput = z.object({ orgId: orgIdSchema, keyId: z.string().min(1).max(64) });

export const planSchema = z.enum(["trial", "solo", "pro", "enterprise"], { error: "Choose one of the plans." });
export const changePlanInput = z.object({ orgId: orgIdSchema, plan: planSchema });
export const rateLimitInput = z.object({
  orgId: orgIdSchema,
  rateLimitPerMinute: z.coerce
    .number({ error: "Enter a number." })
    .int("Enter a whole number.")
    .min(ENTERPRISE_RATE_LIMIT_RANGE.min, `Use at least ${ENTERPRISE_RATE_LIMIT_RANGE.min} request per minute.`)
    .max(ENTERPRISE_RATE_LIMIT_RANGE.max, `Use at most ${ENTERPRISE_RATE_LIMIT_RANGE.max.toLocaleString("en-US")} requests per minute.`),
});

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address.")).pipe(z.string().max(254));
export const signInInput = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password.").max(200),
  callbackUrl: z.string().optional(),
});
export const signUpInput = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters."),
  email: emailSchema,
  password: z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters."),
  organizationName: z.string().trim().min(1, "Name your organization.").max(100, "Use at most 100 characters."),
});
