/**
 * The rate limit's minute, one rule for the admission (db/queries/gateway.ts counts each request
 * in its key's window) and the gateway's answer (lib/api/gateway.ts: the 429 and the reset time).
 */

/**
 * Whether a request at place `rateCount` of its key's minute is within the limit: the TypeScript
 * mirror of the admission statement's `p.rate_count <= f.rate_limit`, which decides whether the
 * request is counted in the month; the gateway refuses with 429 what this refuses.
 * tests/admission-mirrors.test.ts holds the two together.
 */
export function withinRateLimit(rateCount: number, rateLimit: number): boolean {
  return rateCount <= rateLimit;
}

/** The rate limit's fixed window. */
export const RATE_WINDOW_MS = 60_000;

/** The start (epoch ms) of the rate-limit window that `at` (epoch ms) falls in. */
export function rateWindowStart(at: number): number {
  return Math.floor(at / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}
