import type { Plan } from "@/db/schema";

export interface PlanLimits {
  label: string;
  /** null: unlimited. */
  maxActiveKeys: number | null;
  /** null: unlimited; 0: no API access. */
  monthlyCalls: number | null;
  apiAccess: boolean;
  description: string;
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
export const ENTERPRISE_RATE_LIMIT_RANGE = { min: 1, max: 100_000 } as const;

export const PLANS: Record<Plan, PlanLimits> = {
  trial: { label: "Trial", maxActiveKeys: 2, monthlyCalls: 50, apiAccess: true, description: "Try the API: 50 calls a month, for testing only." },
  solo: { label: "Solo", maxActiveKeys: 0, monthlyCalls: 0, apiAccess: false, description: "The dashboard only, without API access." },
  pro: { label: "Pro", maxActiveKeys: 10, monthlyCalls: 10_000, apiAccess: true, description: "For production integrations: 10,000 calls a month." },
  enterprise: { label: "Enterprise", maxActiveKeys: null, monthlyCalls: null, apiAccess: true, description: "Unlimited keys and calls, with a custom rate limit per key." },
};

export const PLAN_ORDER: Plan[] = ["trial", "solo", "pro", "enterprise"];

/** The per-key limit in requests per minute that applies to an organization. */
export function rateLimitFor(plan: Plan, customLimit: number | null): number {
  return plan === "enterprise" ? (customLimit ?? DEFAULT_RATE_LIMIT_PER_MINUTE) : DEFAULT_RATE_LIMIT_PER_MINUTE;
}

export function plansWithApiAccess(): PlanLimits[] {
  return PLAN_ORDER.map((plan) => PLANS[plan]).filter((limits) => limits.apiAccess);
}
