/**
 * The longest time anything held the event loop while `run` ran: a timer that should fire every
 * 5 ms, and the longest gap between two of its firings (SPEC §11: 50 ms at most per request).
 */
export async function longestEventLoopGap<T>(run: () => Promise<T>): Promise<{ result: T; longestGapMs: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await run();
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { result, longestGapMs };
  } finally {
    clearInterval(probe);
  }
}
