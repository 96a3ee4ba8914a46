import { z } from "zod";
import { boundedDate, boundedString, utf8Bytes } from "./input-rules";
import { customExpiryBounds, KEY_EXPIRY_VALUES } from "./key-expiry";
import { ROLL_OVERLAP_VALUES } from "./key-roll";
import {
  API_RESOURCE_NAMES,
  API_RESOURCES,
  IP_ALLOWLIST_MAX,
  KEY_ACCESS_VALUES,
  KEY_MAX_LIFETIME_DAYS,
  PLAN_VALUES,
  ROLE_VALUES,
  QUOTA_ALERT_THRESHOLDS_MAX,
  RATE_LIMIT_ALERT_THRESHOLD_MAX,
  REVOKE_REASON_VALUES,
  WEBHOOK_EVENT_TYPE_VALUES,
  type WebhookEventType,
  type ApiResource,
  type KeyMaxLifetimeDays,
  type KeyRestrictions,
  type KeyScopes,
} from "@/core/enums";
import { IP_ALLOWLIST_TEXT_MAX, parseAllowlist } from "./ip-allowlist";
import { REVOKE_NOTE_MAX } from "./revoke-reasons";
import { ENTERPRISE_RATE_LIMIT_RANGE } from "./plans";
import { WEBHOOK_URL_MAX, webhookUrlProblem } from "./webhooks/endpoint-url";
import { isInvitationToken } from "./invitation-link";

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Characters as a person counts them: an emoji or a CJK ideograph is one. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of graphemes.segment(value)) count++;
  return count;
}

export const API_KEY_NAME_MAX = 100;
/**
 * 100 family or flag emoji (up to 28 UTF-8 bytes each) fit; 100 letters each under a stack of
 * combining marks do not. The length in UTF-16 code units is checked first, before the graphemes
 * are counted, so no input is ever segmented at length.
 */
const API_KEY_NAME_MAX_BYTES = 3200;
const API_KEY_NAME_MAX_CODE_UNITS = 1600;
const CONTROL_CHARACTER = /\p{Cc}/u;
const NO_CONTROL_CHARACTERS = "Remove control characters such as tabs or line breaks.";

/** A person's, an organization's or a key's name: trimmed, one line, bounded. */
function nameSchema(max: number, empty: string) {
  return boundedString(max, `Use at most ${max} characters.`)
    .trim()
    .min(1, empty)
    .refine((name) => !CONTROL_CHARACTER.test(name), NO_CONTROL_CHARACTERS);
}

const apiKeyNameSchema = boundedString(API_KEY_NAME_MAX_CODE_UNITS, `Use at most ${API_KEY_NAME_MAX} characters.`)
  .trim()
  .min(1, "Enter a name for the key.")
  .refine((name) => characterCount(name) <= API_KEY_NAME_MAX, `Use at most ${API_KEY_NAME_MAX} characters.`)
  .refine((name) => utf8Bytes(name) <= API_KEY_NAME_MAX_BYTES, "This name is too long: use fewer emoji or accent marks.")
  .refine((name) => !CONTROL_CHARACTER.test(name), NO_CONTROL_CHARACTERS);

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

const idSchema = boundedString(64).min(1);
const orgIdSchema = idSchema;

/** A key's expiry as the creation form sends it: a choice, and the day when the choice is "date". */
export const keyExpiryInput = z
  .object({
    expiresIn: z.enum(KEY_EXPIRY_VALUES, { error: "Choose when the key expires." }).default("never"),
    expiresOn: z.preprocess((value) => (value === "" ? undefined : value), boundedDate("Choose a date such as 2027-01-31.").optional()),
  })
  .superRefine(({ expiresIn, expiresOn }, ctx) => {
    if (expiresIn !== "date") return;
    if (!expiresOn) return void ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "Choose the day the key expires." });
    const { first, last } = customExpiryBounds(new Date());
    if (expiresOn < first) ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "Choose today or a later day: a key cannot be created already expired." });
    if (expiresOn > last) ctx.addIssue({ code: "custom", path: ["expiresOn"], message: `Choose a day at most 5 years from now (${last}), or "Never".` });
  });

/** An empty form field is no value: the optional reason and note of a revocation. */
const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/** The form field of a resource's permission in the access grid: "scope_invoices". */
export type ScopeField = `scope_${ApiResource}`;
export const scopeField = (resource: ApiResource): ScopeField => `scope_${resource}`;

function scopeSchema(resource: ApiResource) {
  const { noun, permissions } = API_RESOURCES[resource];
  return z.preprocess(blankAsUndefined, z.enum(["none", ...permissions], { error: `Choose none or ${permissions.join(" or ")} for ${noun}.` }).default("none"));
}

/**
 * SPEC §9 as the access fields send it (the create and edit dialogs): full access, read only, or
 * restricted with a permission per resource ("scope_invoices": none, read or write), and the IP
 * allowlist as typed. A restricted key holds at least one permission; the grid's values are
 * ignored unless the key is restricted.
 */
export const keyRestrictionsInput = z
  .object({
    access: z.preprocess(blankAsUndefined, z.enum(KEY_ACCESS_VALUES, { error: "Choose full access, read only or restricted." }).default("full")),
    ...(Object.fromEntries(API_RESOURCE_NAMES.map((resource) => [scopeField(resource), scopeSchema(resource)])) as Record<ScopeField, ReturnType<typeof scopeSchema>>),
    ipAllowlist: z.preprocess(
      (value) => value ?? "",
      boundedString(IP_ALLOWLIST_TEXT_MAX, `This list is too long: use at most ${IP_ALLOWLIST_MAX} addresses or ranges.`).transform((text, ctx) => {
        const parsed = parseAllowlist(text);
        if (parsed.ok) return parsed.entries;
        for (const message of parsed.messages) ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }),
    ),
  })
  .transform((input, ctx): KeyRestrictions => {
    const scopes: KeyScopes = {};
    if (input.access === "restricted") {
      for (const resource of API_RESOURCE_NAMES) {
        const permission = input[scopeField(resource)];
        if (permission !== "none") Object.assign(scopes, { [resource]: permission });
      }
      if (Object.keys(scopes).length === 0) {
        ctx.addIssue({ code: "custom", path: ["access"], message: "Give a restricted key at least one permission, or choose Read only." });
        return z.NEVER;
      }
    }
    return { access: input.access, scopes, ipAllowlist: input.ipAllowlist };
  });

export const createApiKeyInput = z.object({ orgId: orgIdSchema, name: apiKeyNameSchema }).and(keyExpiryInput).and(keyRestrictionsInput);
export const updateKeyRestrictionsInput = z.object({ orgId: orgIdSchema, keyId: idSchema }).and(keyRestrictionsInput);

export const revokeApiKeyInput = z
  .object({
    orgId: orgIdSchema,
    keyId: idSchema,
    reason: z.preprocess(blankAsUndefined, z.enum(REVOKE_REASON_VALUES, { error: "Choose one of the reasons." }).optional()),
    note: z.preprocess(
      blankAsUndefined,
      boundedString(REVOKE_NOTE_MAX * 2, `Use at most ${REVOKE_NOTE_MAX} characters.`)
        .trim()
        .max(REVOKE_NOTE_MAX, `Use at most ${REVOKE_NOTE_MAX} characters.`)
        .refine((note) => !/[^\P{Cc}\n\r]/u.test(note), "Remove control characters such as tabs.")
        .transform((note) => note || undefined)
        .optional(),
    ),
  })
  .superRefine(({ reason, note }, ctx) => {
    if (note && !reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "Choose a reason for the note." });
    if (reason === "other" && !note) ctx.addIssue({ code: "custom", path: ["note"], message: "Say in a few words why the key is revoked." });
  });

export const renameApiKeyInput = z.object({ orgId: orgIdSchema, keyId: idSchema, name: apiKeyNameSchema });
export const rollApiKeyInput = z.object({ orgId: orgIdSchema, keyId: idSchema, overlap: z.enum(ROLL_OVERLAP_VALUES, { error: "Choose how long the old key keeps working." }) });

const planSchema = z.enum(PLAN_VALUES, { error: "Choose one of the plans." });
export const changePlanInput = z.object({ orgId: orgIdSchema, plan: planSchema });
export const rateLimitInput = z.object({
  orgId: orgIdSchema,
  rateLimitPerMinute: z.coerce
    .number({ error: "Enter a number." })
    .int("Enter a whole number.")
    .min(ENTERPRISE_RATE_LIMIT_RANGE.min, `Use at least ${ENTERPRISE_RATE_LIMIT_RANGE.min} request per minute.`)
    .max(ENTERPRISE_RATE_LIMIT_RANGE.max, `Use at most ${ENTERPRISE_RATE_LIMIT_RANGE.max.toLocaleString("en-US")} requests per minute.`),
});

/**
 * SPEC §10's alert settings as the form sends them: the quota thresholds typed as "80, 90, 100"
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
      else if (percents.length > QUOTA_ALERT_THRESHOLDS_MAX) ctx.addIssue({ code: "custom", message: `Use at most ${QUOTA_ALERT_THRESHOLDS_MAX} percentages.` });
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

export const WEBHOOK_DESCRIPTION_MAX = 200;

/** An endpoint's event types as the form sends them: comma-separated, each known, at least one. */
const webhookEventTypesSchema = z.preprocess(
  (value) => value ?? "",
  boundedString(1000).transform((text, ctx) => {
    const types = [...new Set(text.split(",").map((type) => type.trim()).filter(Boolean))];
    const unknown = types.find((type) => !(WEBHOOK_EVENT_TYPE_VALUES as readonly string[]).includes(type));
    if (unknown !== undefined) ctx.addIssue({ code: "custom", message: `"${unknown.slice(0, 40)}" is not an event type.` });
    else if (types.length === 0) ctx.addIssue({ code: "custom", message: "Choose at least one event." });
    return types as WebhookEventType[];
  }),
);

/** SPEC §10: a new endpoint. Where its host resolves is checked by the action, not here. */
export const createWebhookEndpointInput = z.object({
  orgId: orgIdSchema,
  url: boundedString(WEBHOOK_URL_MAX, `Use at most ${WEBHOOK_URL_MAX} characters.`)
    .trim()
    .min(1, "Enter the URL that receives the events.")
    .superRefine((url, ctx) => {
      const problem = url ? webhookUrlProblem(url) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  description: z.preprocess(
    (value) => value ?? "",
    boundedString(WEBHOOK_DESCRIPTION_MAX, `Use at most ${WEBHOOK_DESCRIPTION_MAX} characters.`)
      .trim()
      .refine((text) => !CONTROL_CHARACTER.test(text), NO_CONTROL_CHARACTERS),
  ),
  eventTypes: webhookEventTypesSchema,
});

export const webhookEndpointInput = z.object({ orgId: orgIdSchema, endpointId: idSchema });
export const setWebhookEndpointEnabledInput = webhookEndpointInput.extend({
  enabled: z.enum(["true", "false"], { error: "Say whether the endpoint is on." }).transform((value) => value === "true"),
});
export const resendWebhookDeliveryInput = z.object({ orgId: orgIdSchema, deliveryId: idSchema });

const emailSchema = boundedString(254).trim().toLowerCase().pipe(z.email("Enter a valid email address."));
const passwordSchema = boundedString(200, "Use at most 200 characters.");
export const signInInput = z.object({
  email: emailSchema,
  password: passwordSchema.min(1, "Enter your password."),
  callbackUrl: boundedString(2048).optional(),
});
export const signUpInput = z.object({
  name: nameSchema(100, "Enter your name."),
  email: emailSchema,
  password: passwordSchema.min(10, "Use at least 10 characters."),
  organizationName: nameSchema(100, "Name your organization."),
});

/** SPEC §12. */
const roleSchema = z.enum(ROLE_VALUES, { error: "Choose a role: owner, admin, member or guest." });
const invitationTokenSchema = boundedString(64).refine(isInvitationToken, "This invitation link is not valid.");
export const inviteMemberInput = z.object({ orgId: orgIdSchema, email: emailSchema, role: roleSchema });
export const invitationInput = z.object({ orgId: orgIdSchema, invitationId: idSchema });
export const memberInput = z.object({ orgId: orgIdSchema, userId: idSchema });
export const changeMemberRoleInput = memberInput.extend({ role: roleSchema });
export const leaveOrganizationInput = z.object({ orgId: orgIdSchema });
export const acceptInvitationInput = z.object({ token: invitationTokenSchema });
/** Sign-up through an invitation: the email is the invitation's, so the form does not send one. */
export const signUpWithInvitationInput = signUpInput.pick({ name: true, password: true }).extend({ token: invitationTokenSchema });

const MAX_LIFETIME_VALUES = ["none", ...KEY_MAX_LIFETIME_DAYS.map(String)] as [string, ...string[]];

/**
 * SPEC §7 key policy as its form sends it: a maximum lifetime ("none" or a number of days) and
 * the "expiry required" checkbox ("on" when checked, absent otherwise). A maximum implies the
 * requirement, so the stored policy never says "at most 90 days" and "may never expire" at once.
 */
export const keyPolicyInput = z
  .object({
    orgId: orgIdSchema,
    maxLifetimeDays: z.enum(MAX_LIFETIME_VALUES, { error: `Choose no maximum or ${KEY_MAX_LIFETIME_DAYS.join(", ")} days.` }),
    expiryRequired: z.preprocess((value) => value ?? "off", z.enum(["on", "off", "true", "false"], { error: "Say whether new keys must expire." })),
  })
  .transform(({ orgId, maxLifetimeDays, expiryRequired }) => {
    const days = maxLifetimeDays === "none" ? null : (Number(maxLifetimeDays) as KeyMaxLifetimeDays);
    return { orgId, maxLifetimeDays: days, expiryRequired: days !== null || expiryRequired === "on" || expiryRequired === "true" };
  });
