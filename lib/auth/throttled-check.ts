import { attemptFailed, attemptSucceeded, countAttempt, type CountedAttempt, type ThrottleLimit } from "@/db/queries/auth-throttle";

/**
 * One check of a secret (a password, a second factor), throttled by the client's address and by
 * the subject it is for (an email, a person). The attempt is counted against both before `check`
 * runs, in one statement each that refuses once the window is full, so however many attempts run
 * at once, at most the subject's limit of secrets is checked and fails in a window. A pass gives
 * its own count back and forgets the subject's failures counted before it began (not those of
 * attempts alongside it); a failure stays counted. `check` answers null for a wrong secret.
 */
export async function throttledCheck<T>(
  byAddress: ThrottleLimit,
  bySubject: ThrottleLimit,
  check: () => Promise<T | null>,
): Promise<{ refusedBy: ThrottleLimit } | { passed: T | null }> {
  // Address before subject, always: the row locks cannot deadlock.
  const attempt = await countAttempt([byAddress, bySubject]);
  if ("refusedBy" in attempt) return attempt;
  const [addressAttempt, subjectAttempt] = attempt.counted as [CountedAttempt, CountedAttempt];
  const passed = await check();
  if (passed === null) {
    await attemptFailed(subjectAttempt);
    return { passed: null };
  }
  await attemptSucceeded(subjectAttempt, { forgetFailures: true });
  await attemptSucceeded(addressAttempt, { forgetFailures: false });
  return { passed };
}
