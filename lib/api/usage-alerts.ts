import { getDb } from "@/db";
import { quotaThresholdsReached, raiseQuotaAlerts, raiseRateLimitAlert } from "@/db/alerts";
import type { Admission } from "@/db/queries/gateway";
import { utcMonthStart } from "@/core/time";

/**
 * SPEC §10's usage alerts, from the figures the admission statement already returned: no query
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

  /**
   * Looks at one admitted or refused request: null when it raises nothing (no promise on the hot
   * path), otherwise a promise that resolves once the alerts it raised are committed.
   */
  watch(admission: Admission, now: number): Promise<unknown> | null {
    const quota = admission.quota !== null && admission.quota > 0 && admission.rateCount !== null ? this.watchQuota(admission, now) : null;
    const rateLimit = admission.rateCount !== null && admission.rateCount > admission.rateLimit ? this.watchRateLimit(admission, new Date(now)) : null;
    return quota && rateLimit ? Promise.all([quota, rateLimit]) : (quota ?? rateLimit);
  }

  private watchQuota(admission: Admission, now: number): Promise<void> | null {
    const quota = admission.quota!;
    // Below the lowest threshold: nothing to remember or ask.
    if (admission.quotaUsed * 100 < quota * Math.min(...admission.quotaAlertThresholds)) return null;
    const at = new Date(now);
    const month = utcMonthStart(at);
    let raised = this.quotaRaised.get(admission.orgId);
    if (!raised || raised.month !== month) this.quotaRaised.set(admission.orgId, (raised = { month, thresholds: new Set() }));
    const remembered = raised.thresholds;
    const reached = quotaThresholdsReached(quota, admission.quotaUsed, admission.quotaAlertThresholds).filter((threshold) => !remembered.has(threshold));
    if (reached.length === 0) return null;
    for (const threshold of reached) remembered.add(threshold);
    return raiseQuotaAlerts(getDb(), { orgId: admission.orgId, month, quota, thresholds: reached, at }).then(
      () => undefined,
      (error: unknown) => {
        // Not remembered as raised: the next request of the organization asks again.
        for (const threshold of reached) remembered.delete(threshold);
        throw error;
      },
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
