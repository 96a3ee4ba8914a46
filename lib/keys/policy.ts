import { addDays } from "date-fns";
import type { KeyPolicy } from "@/core/enums";
import { utcDay, utcDayStart } from "@/core/time";
import { KEY_EXPIRY_CHOICES, keyExpiresAt, type KeyExpiryChoice } from "./expiry";

export type { KeyPolicy };

export const NO_KEY_POLICY: KeyPolicy = { maxLifetimeDays: null, expiryRequired: false };

/**
 * What a new key gets when the policy asks for an expiry without naming a maximum and nothing
 * else says how long: a roll of a key that never expires. The create dialog proposes it too.
 */
const FALLBACK_CHOICE = "90" satisfies KeyExpiryChoice;
const FALLBACK_LIFETIME_DAYS = Number(FALLBACK_CHOICE);

export const mustExpire = (policy: KeyPolicy) => policy.expiryRequired || policy.maxLifetimeDays !== null;

/** "Keys expire within 90 days" / "Keys must expire" / null when there is no policy. */
export function describeKeyPolicy(policy: KeyPolicy): string | null {
  if (policy.maxLifetimeDays !== null) return `Keys expire within ${policy.maxLifetimeDays} days`;
  return policy.expiryRequired ? "Keys must expire" : null;
}

/**
 * The latest a key created at `createdAt` may expire: the end of the UTC day `maxLifetimeDays`
 * on, so the "90 days" choice and a custom date on the 90th day both fit. Null: no maximum.
 */
export function latestExpiry(policy: KeyPolicy, createdAt: Date): Date | null {
  if (policy.maxLifetimeDays === null) return null;
  return addDays(utcDayStart(utcDay(createdAt)), policy.maxLifetimeDays + 1);
}

/** Why a key created at `createdAt` that expires at `expiresAt` is outside the policy, or null. */
export function policyBreach(policy: KeyPolicy, key: { createdAt: Date; expiresAt: Date | null }): string | null {
  if (!key.expiresAt) return mustExpire(policy) ? "It never expires, and the key policy requires an expiry." : null;
  const latest = latestExpiry(policy, key.createdAt);
  return latest && key.expiresAt > latest ? `It lives longer than the key policy's ${policy.maxLifetimeDays} days.` : null;
}

/** The last day a custom expiry may fall on under the policy, as YYYY-MM-DD, or null. */
export function lastCustomExpiryDay(policy: KeyPolicy, now: Date): string | null {
  return policy.maxLifetimeDays === null ? null : utcDay(addDays(now, policy.maxLifetimeDays));
}

/** The creation dialog's expiry choices that fit the policy today ("date" is bounded instead). */
export function allowedExpiryChoices(policy: KeyPolicy, now: Date): KeyExpiryChoice[] {
  return KEY_EXPIRY_CHOICES.map((choice) => choice.value).filter(
    (choice) => choice === "date" || policyBreach(policy, { createdAt: now, expiresAt: keyExpiresAt(choice, undefined, now) }) === null,
  );
}

/** The creation dialog's first choice: never without a policy, else 90 days or the longest that fits. */
export function defaultExpiryChoice(policy: KeyPolicy, now: Date): KeyExpiryChoice {
  if (!mustExpire(policy)) return "never";
  const presets = allowedExpiryChoices(policy, now).filter((choice) => choice !== "date");
  return presets.includes(FALLBACK_CHOICE) ? FALLBACK_CHOICE : presets.at(-1)!;
}

/**
 * A rolled key's replacement keeps the old lifetime when it fits the policy; otherwise it gets the
 * policy's maximum, or the fallback lifetime when the policy only requires an expiry.
 */
export function fitToPolicy(policy: KeyPolicy, expiresAt: Date | null, now: Date): Date | null {
  if (policyBreach(policy, { createdAt: now, expiresAt }) === null) return expiresAt;
  const at = addDays(now, policy.maxLifetimeDays ?? FALLBACK_LIFETIME_DAYS);
  at.setUTCMilliseconds(0);
  return at;
}

/**
 * Why a listed key is outside the policy, or null. Only keys still in service are marked: revoked
 * and expired ones need nothing done, and a rolled key's replacement already follows the policy.
 */
export function keyOutsidePolicy(policy: KeyPolicy, key: { status: string; replacedBy: unknown; createdAt: string; expiresAt: string | null }): string | null {
  if (key.status !== "active" || key.replacedBy) return null;
  return policyBreach(policy, { createdAt: new Date(key.createdAt), expiresAt: key.expiresAt ? new Date(key.expiresAt) : null });
}

/** What to do about a key outside the policy, said to someone who may roll it or not. */
export const outsidePolicyAdvice = (mayRoll: boolean) =>
  mayRoll ? "Roll it: the replacement follows the policy." : "An owner can roll it: the replacement follows the policy.";
