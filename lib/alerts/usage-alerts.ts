import { getDb } from "@/db";
import { quotaThresholdsReached, raiseBudgetAlerts, raiseQuotaAlerts, raiseRateLimitAlert } from "./raise";
import { BUDGET_ALERT_THRESHOLDS, budgetThresholdsReached } from "@/core/key-budget";
import type { Admission } from "@/db/queries/gateway";
import { utcMonthStart } from "@/core/time";

/**
 * Raises the thresholds of `reached` this process has not raised yet (`remembered`), and remembers
 * them; null when there are none. A failed raise is forgotten, so the next request asks again.
 */
function raiseUnremembered(remembered: Set<number>, reached: number[], raise: (thresholds: number[]) => Promise<unknown>): Promise<void> | null {
  const thresholds = reached.filter((threshold) => !remembered.has(threshold));
  if (thresholds.length === 0) return null;
  for (const threshold of thresholds) remembered.add(threshold);
  return raise(thresholds).then(
    () => undefined,
    (error: unknown) => {
      for (const threshold of thresholds) remembered.delete(threshold);
      throw error;
    },
  );
}

/**
 * The usage alerts and the budget alerts, from the figures the admission statement already returned: no query
 * on the hot path until a threshold is reached. What this process has raised (or seen raised) is
 * remembered, so a month past 80 % asks the database once per threshold, not once per request;
 * the database's unique index keeps an alert once across processes.
 */
export class UsageAlerts {
  /** Per organization: the month and the thresholds this process has raised in it. */
  private readonly quotaRaised = new Map<string, { month: string; thresholds: Set<number> }>();
  /** Per key: the count of its recent 429s in flight, and whether another 429 came meanwhile. */
  private readonly rateLimitAsking = new Map<string, { again: boolean; done?: Promise<void> }>();
  /** Per key: the hour this process raised its burst alert in. */
  private readonly rateLimitRaised = new Map<string, number>();
  /** Per key with a budget: the period and the thresholds this process has raised in it. */
  private readonly budgetRaised = new Map<string, { periodStart: number; thresholds: Set<number> }>();

  /**
   * Looks at one admitted or refused request: null when it raises nothing (no promise on the hot
   * path), otherwise a promise that resolves once the alerts it raised are committed.
   */
  watch(admission: Admission, now: number): Promise<unknown> | null {
    const quota = admission.quota !== null && admission.quota > 0 && admission.rateCount !== null ? this.watchQuota(admission, now) : null;
    const rateLimit = admission.rateCount !== null && admission.rateCount > admission.rateLimit ? this.watchRateLimit(admission, new Date(now)) : null;
    // A request the rate limit refused was not offered to the budget.
    const budget = admission.budget && admission.rateCount !== null && admission.rateCount <= admission.rateLimit ? this.watchBudget(admission, now) : null;
    const watching = [quota, rateLimit, budget].filter((promise) => promise !== null);
    return watching.length > 1 ? Promise.all(watching) : (watching[0] ?? null);
  }

  private watchBudget(admission: Admission, now: number): Promise<void> | null {
    const budget = admission.budget!;
    if (budget.used * 100 < budget.limit * BUDGET_ALERT_THRESHOLDS[0]) return null;
    const { periodStart } = budget;
    let raised = this.budgetRaised.get(admission.keyId);
    if (!raised || raised.periodStart !== periodStart) {
      // Bounded: a process that has seen this many keys starts again (the index still keeps each once).
      if (this.budgetRaised.size > 10_000) this.budgetRaised.clear();
      this.budgetRaised.set(admission.keyId, (raised = { periodStart, thresholds: new Set() }));
    }
    return raiseUnremembered(raised.thresholds, budgetThresholdsReached(budget.limit, budget.used), (thresholds) =>
      raiseBudgetAlerts(getDb(), {
        orgId: admission.orgId,
        apiKeyId: admission.keyId,
        limit: budget.limit,
        period: budget.period,
        periodStart: new Date(periodStart),
        thresholds,
        at: new Date(now),
      }),
    );
  }

  private watchQuota(admission: Admission, now: number): Promise<void> | null {
    const quota = admission.quota!;
    // Below the lowest threshold: nothing to remember or ask.
    if (admission.quotaUsed * 100 < quota * Math.min(...admission.quotaAlertThresholds)) return null;
    const at = new Date(now);
    const month = utcMonthStart(at);
    let raised = this.quotaRaised.get(admission.orgId);
    if (!raised || raised.month !== month) this.quotaRaised.set(admission.orgId, (raised = { month, thresholds: new Set() }));
    return raiseUnremembered(raised.thresholds, quotaThresholdsReached(quota, admission.quotaUsed, admission.quotaAlertThresholds), (thresholds) =>
      raiseQuotaAlerts(getDb(), { orgId: admission.orgId, month, quota, thresholds, at }),
    );
  }

  /**
   * Adds up the key's recent 429s, one count at a time per key: a 429 that arrives while one is
   * being counted asks for one more count afterwards and waits for it, so a storm of refusals
   * costs at most two queries in a row and every refusal's response leaves once it was counted.
   */
  private watchRateLimit(admission: Admission, at: Date): Promise<void> {
    const hour = Math.floor(at.getTime() / 3_600_000);
    if (this.rateLimitRaised.get(admission.keyId) === hour) return Promise.resolve();
    const asking = this.rateLimitAsking.get(admission.keyId);
    if (asking) {
      asking.again = true;
      return asking.done!;
    }
    const state: { again: boolean; done?: Promise<void> } = { again: false };
    this.rateLimitAsking.set(admission.keyId, state);
    state.done = (async () => {
      try {
        do {
          state.again = false;
          const raised = await raiseRateLimitAlert(getDb(), { orgId: admission.orgId, apiKeyId: admission.keyId, rateLimit: admission.rateLimit, at });
          if (raised.length > 0) {
            // Bounded: a process that has seen this many bursts starts again (the index still keeps each once).
            if (this.rateLimitRaised.size > 10_000) this.rateLimitRaised.clear();
            this.rateLimitRaised.set(admission.keyId, hour);
            break;
          }
        } while (state.again);
      } finally {
        this.rateLimitAsking.delete(admission.keyId);
      }
    })();
    return state.done;
  }
}
