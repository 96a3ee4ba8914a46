import { z } from "zod";
import {
  API_RESOURCE_NAMES,
  API_RESOURCES,
  IP_ALLOWLIST_MAX,
  KEY_ACCESS_VALUES,
  KEY_MAX_LIFETIME_DAYS,
  MODE_VALUES,
  PERSON_REVOKE_REASON_VALUES,
  type ApiResource,
  type KeyMaxLifetimeDays,
  type KeyRestrictions,
  type KeyScopes,
} from "@/core/enums";
import {
  blankAsUndefined,
  boundedDate,
  boundedString,
  characterCount,
  CONTROL_CHARACTER,
  idSchema,
  NO_CONTROL_CHARACTERS,
  orgIdSchema,
  utf8Bytes,
} from "@/lib/input-rules";
import { BUDGET_PERIOD_VALUES, KEY_BUDGET_MAX, type KeyBudget } from "@/core/key-budget";
import { customExpiryBounds, KEY_EXPIRY_VALUES } from "./expiry";
import { IP_ALLOWLIST_TEXT_MAX, parseAllowlist } from "./ip-allowlist";
import { REVOKE_NOTE_MAX } from "./revoke-reasons";
import { ROLL_OVERLAP_VALUES } from "./roll";

export const API_KEY_NAME_MAX = 100;
/**
 * 100 family or flag emoji (up to 28 UTF-8 bytes each) fit; 100 letters each under a stack of
 * combining marks do not. The length in UTF-16 code units is checked first, before the graphemes
 * are counted, so no input is ever segmented at length.
 */
const API_KEY_NAME_MAX_BYTES = 3200;
const API_KEY_NAME_MAX_CODE_UNITS = 1600;

const apiKeyNameSchema = boundedString(API_KEY_NAME_MAX_CODE_UNITS, `Use at most ${API_KEY_NAME_MAX} characters.`)
  .trim()
  .min(1, "Enter a name for the key.")
  .refine((name) => characterCount(name) <= API_KEY_NAME_MAX, `Use at most ${API_KEY_NAME_MAX} characters.`)
  .refine((name) => utf8Bytes(name) <= API_KEY_NAME_MAX_BYTES, "This name is too long: use fewer emoji or accent marks.")
  .refine((name) => !CONTROL_CHARACTER.test(name), NO_CONTROL_CHARACTERS);

const GENERIC_NAMES = new Set(["test", "testing", "api key", "apikey", "api-key", "api_key", "key", "my key", "new key", "default", "api"]);

/** Names that say nothing are accepted, with this suggestion. */
export function genericNameWarning(name: string): string | null {
  const normalized = name.trim().toLowerCase().replace(/\s+/g, " ");
  if (!normalized) return null;
  if (/^\d+$/.test(normalized) || GENERIC_NAMES.has(normalized)) {
    return 'This name does not say where the key is used. Try its purpose or location, e.g. "Production billing server", "Staging" or "iOS app".';
  }
  return null;
}

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
    if (expiresOn < first)
      ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "Choose today or a later day: a key cannot be created already expired." });
    if (expiresOn > last) ctx.addIssue({ code: "custom", path: ["expiresOn"], message: `Choose a day at most 5 years from now (${last}), or "Never".` });
  });

/** The form field of a resource's permission in the access grid: "scope_invoices". */
export type ScopeField = `scope_${ApiResource}`;
export const scopeField = (resource: ApiResource): ScopeField => `scope_${resource}`;

function scopeSchema(resource: ApiResource) {
  const { noun, permissions } = API_RESOURCES[resource];
  return z.preprocess(blankAsUndefined, z.enum(["none", ...permissions], { error: `Choose none or ${permissions.join(" or ")} for ${noun}.` }).default("none"));
}

/**
 * A key's access as the access fields send it (the create and edit dialogs): full access, read only, or
 * restricted with a permission per resource ("scope_invoices": none, read or write), and the IP
 * allowlist as typed. A restricted key holds at least one permission; the grid's values are
 * ignored unless the key is restricted.
 */
export const keyRestrictionsInput = z
  .object({
    access: z.preprocess(blankAsUndefined, z.enum(KEY_ACCESS_VALUES, { error: "Choose full access, read only or restricted." }).default("full")),
    ...(Object.fromEntries(API_RESOURCE_NAMES.map((resource) => [scopeField(resource), scopeSchema(resource)])) as Record<
      ScopeField,
      ReturnType<typeof scopeSchema>
    >),
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

const BUDGET_LIMIT_MESSAGE = `Enter a whole number of requests from 1 to ${KEY_BUDGET_MAX.toLocaleString("en-US")}, or leave it empty for no budget.`;

/**
 * A key's budget as the create and edit dialogs send it: a number of requests ("1,000" and "1 000" read
 * as 1000), empty for no budget, and the period it counts in (UTC day, week from Monday, month).
 */
export const keyBudgetInput = z
  .object({
    budgetLimit: z.preprocess(
      (value) => (typeof value === "string" ? value.trim().replace(/[,\s_]/g, "") : (value ?? "")),
      z.string({ error: BUDGET_LIMIT_MESSAGE }).max(20, BUDGET_LIMIT_MESSAGE).regex(/^\d*$/, BUDGET_LIMIT_MESSAGE),
    ),
    budgetPeriod: z.preprocess(blankAsUndefined, z.enum(BUDGET_PERIOD_VALUES, { error: "Choose a day, a week or a month." }).default("day")),
  })
  .transform(({ budgetLimit, budgetPeriod }, ctx): { budget: KeyBudget | null } => {
    if (budgetLimit === "") return { budget: null };
    const limit = Number(budgetLimit);
    if (limit < 1 || limit > KEY_BUDGET_MAX) {
      ctx.addIssue({ code: "custom", path: ["budgetLimit"], message: BUDGET_LIMIT_MESSAGE });
      return z.NEVER;
    }
    return { budget: { limit, period: budgetPeriod } };
  });

/**
 * Live or test (docs/features/test-mode.md#keys), chosen once, at creation. The form always sends
 * its choice (live unless changed); a caller that sends none gets a live key, as before test mode.
 */
const keyModeSchema = z.preprocess(blankAsUndefined, z.enum(MODE_VALUES, { error: "Choose a live or a test key." }).default("live"));

export const createApiKeyInput = z
  .object({ orgId: orgIdSchema, name: apiKeyNameSchema, mode: keyModeSchema })
  .and(keyExpiryInput)
  .and(keyRestrictionsInput)
  .and(keyBudgetInput);
/** "Edit access": what the key may do, from where, and how much (docs/features/restricted-keys.md, docs/features/key-budgets.md). */
export const updateKeyRestrictionsInput = z.object({ orgId: orgIdSchema, keyId: idSchema }).and(keyRestrictionsInput).and(keyBudgetInput);

export const revokeApiKeyInput = z
  .object({
    orgId: orgIdSchema,
    keyId: idSchema,
    reason: z.preprocess(blankAsUndefined, z.enum(PERSON_REVOKE_REASON_VALUES, { error: "Choose one of the reasons." }).optional()),
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
export const rollApiKeyInput = z.object({
  orgId: orgIdSchema,
  keyId: idSchema,
  overlap: z.enum(ROLL_OVERLAP_VALUES, { error: "Choose how long the old key keeps working." }),
});

const MAX_LIFETIME_VALUES = ["none", ...KEY_MAX_LIFETIME_DAYS.map(String)] as [string, ...string[]];

/**
 * The key policy as its form sends it: a maximum lifetime ("none" or a number of days) and
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
