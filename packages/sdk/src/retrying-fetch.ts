/** How a call is retried (docs/features/sdk.md#retries). */
export interface RetryPolicy {
  /** Retries after the first attempt: 2 by default, 0 to turn retrying off. */
  maxRetries: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once (a monthly quota resets in days). */
  maxRetryAfterSeconds: number;
  /** Each attempt's time limit, in milliseconds. */
  timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, maxRetryAfterSeconds: 60, timeoutMs: 60_000 };

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * Whether a request whose answer was lost may be sent again without doing twice what it does: reads,
 * PATCH (it sets the same fields), and a POST carrying an Idempotency-Key, which the API answers
 * with the first request's answer. A DELETE is not: a second one would answer 404 for a deletion
 * that happened.
 */
function resendable(request: Request): boolean {
  return ["GET", "HEAD", "PATCH"].includes(request.method) || (request.method === "POST" && request.headers.has("idempotency-key"));
}

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … up to 8 s. */
function backoffMs(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.25);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** How long to wait before sending again, or null when this answer is final. */
async function retryDelayMs(response: Response, attempt: number, policy: RetryPolicy): Promise<number | null> {
  if (response.status === 409) {
    // The first request with this Idempotency-Key is still running (the answer to it was lost, say): ask again once it has finished.
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code === "idempotency_key_in_use" ? backoffMs(attempt) : null;
  }
  if (!RETRIED_STATUSES.has(response.status)) return null;
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
    const seconds = Number(retryAfter);
    return seconds <= policy.maxRetryAfterSeconds ? seconds * 1000 : null;
  }
  return response.status === 429 ? null : backoffMs(attempt);
}

/**
 * One attempt, aborted when the caller aborts or when no answer has begun within `timeoutMs`. One
 * controller and one timer: AbortSignal.any over AbortSignal.timeout cost about 80 µs a call
 * (docs/performance.md#the-sdks-overhead).
 */
async function attemptWithin(base: typeof fetch, request: Request, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${timeoutMs} ms.`, "TimeoutError")), timeoutMs);
  const onAbort = () => controller.abort(request.signal.reason);
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await base(request, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
  }
}

/**
 * `fetch` for openapi-fetch that sends a request again after a 429 or 5xx (honouring Retry-After),
 * an `idempotency_key_in_use` conflict, or a lost connection when resending is safe, up to
 * `maxRetries` times. A POST gets an Idempotency-Key first when it has none, so that its retries
 * create one object.
 */
export function retryingFetch(base: typeof fetch, policy: RetryPolicy): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === "POST" && !request.headers.has("idempotency-key")) request.headers.set("Idempotency-Key", crypto.randomUUID());
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.maxRetries;
      let response: Response;
      try {
        // A body is read once: every attempt but the last sends a copy.
        response = await attemptWithin(base, last || request.body === null ? request : request.clone(), policy.timeoutMs);
      } catch (error) {
        if (request.signal.aborted || last || !resendable(request)) throw error;
        await sleep(backoffMs(attempt), request.signal);
        continue;
      }
      const delay = last ? null : await retryDelayMs(response, attempt, policy);
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
