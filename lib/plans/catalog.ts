import { PLAN_VALUES, type Mode, type Plan } from "@/core/enums";

export interface PlanLimits {
  label: string;
  /** null: unlimited. */
  maxActiveKeys: number | null;
  /** null: unlimited; 0: no API access. */
  monthlyCalls: number | null;
  apiAccess: boolean;
  /** Whether an owner may set the per-key rate limit; otherwise the default applies. */
  customRateLimit: boolean;
  description: string;
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
export const ENTERPRISE_RATE_LIMIT_RANGE = { min: 1, max: 100_000 } as const;

export const PLANS: Record<Plan, PlanLimits> = {
  trial: {
    label: "Trial",
    maxActiveKeys: 2,
    monthlyCalls: 50,
    apiAccess: true,
    customRateLimit: false,
    description: "Try the API: 50 calls a month, for testing only.",
  },
  solo: { label: "Solo", maxActiveKeys: 0, monthlyCalls: 0, apiAccess: false, customRateLimit: false, description: "The dashboard only, without API access." },
  pro: {
    label: "Pro",
    maxActiveKeys: 10,
    monthlyCalls: 10_000,
    apiAccess: true,
    customRateLimit: false,
    description: "For production integrations: 10,000 calls a month.",
  },
  enterprise: {
    label: "Enterprise",
    maxActiveKeys: null,
    monthlyCalls: null,
    apiAccess: true,
    customRateLimit: true,
    description: "Unlimited keys and calls, with a custom rate limit per key.",
  },
};

/** The plans in the order the plan page lists them: the database enum's order. */
export const PLAN_ORDER: readonly Plan[] = PLAN_VALUES;

/** The per-key limit in requests per minute that applies to an organization. */
export function rateLimitFor(plan: Plan, customLimit: number | null): number {
  return PLANS[plan].customRateLimit ? (customLimit ?? DEFAULT_RATE_LIMIT_PER_MINUTE) : DEFAULT_RATE_LIMIT_PER_MINUTE;
}

/**
 * Why no further key of `mode` can be made when the plan's limit of active keys of that mode is
 * reached, else null: the server's refusal, and the line the keys page shows beside "Create API
 * key". Live and test keys are counted apart, each against the same maximum
 * (docs/features/test-mode.md#keys).
 */
export function keyLimitReached(plan: Plan, mode: Mode, activeKeys: number): string | null {
  const { label, maxActiveKeys } = PLANS[plan];
  if (maxActiveKeys === null || activeKeys < maxActiveKeys) return null;
  const other = mode === "live" ? "test" : "live";
  return `Your ${label} plan allows ${maxActiveKeys} active ${mode} keys (${other} keys are counted apart). Revoke a ${mode} key you no longer use, or change the plan.`;
}

/** The labels of the plans that have `feature`, joined for a sentence: "Trial, Pro, Enterprise". */
export function plansWith(feature: "apiAccess" | "customRateLimit"): string {
  return PLAN_ORDER.filter((plan) => PLANS[plan][feature])
    .map((plan) => PLANS[plan].label)
    .join(", ");
}
