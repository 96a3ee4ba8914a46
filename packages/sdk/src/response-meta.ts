/** What every answer says about the caller's limits, read from its headers (docs/features/sdk.md#limits). */
export interface ResponseMeta {
  /** `X-Request-Id`: quote it to support, find it in the dashboard's audit log. */
  requestId: string | null;
  /** The key's per-minute limit, when the key was admitted. */
  rateLimit: { limit: number; remaining: number; resetsAt: Date } | null;
  /** The organization's monthly calls, when its plan has a quota and the key is live. */
  quota: { limit: number; remaining: number } | null;
  /** The key's own budget, when an admin gave it one. */
  budget: { limit: number; remaining: number; resetsAt: Date } | null;
  /** When the key expires, when it was given an expiry. */
  keyExpiresAt: Date | null;
  /** Seconds to wait before retrying, on a 429 or 503. */
  retryAfterSeconds: number | null;
  /** Whether the answer is the stored one of an earlier request with the same Idempotency-Key. */
  idempotentReplayed: boolean;
}

function integer(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

function unixSeconds(headers: Headers, name: string): Date | null {
  const seconds = integer(headers, name);
  return seconds === null ? null : new Date(seconds * 1000);
}

export function responseMeta(headers: Headers): ResponseMeta {
  const rateLimit = integer(headers, "x-ratelimit-limit");
  const quota = integer(headers, "x-quota-limit");
  const budget = integer(headers, "x-key-budget-limit");
  const expires = headers.get("x-api-key-expires");
  return {
    requestId: headers.get("x-request-id"),
    rateLimit:
      rateLimit === null
        ? null
        : { limit: rateLimit, remaining: integer(headers, "x-ratelimit-remaining") ?? 0, resetsAt: unixSeconds(headers, "x-ratelimit-reset") ?? new Date(0) },
    quota: quota === null ? null : { limit: quota, remaining: integer(headers, "x-quota-remaining") ?? 0 },
    budget:
      budget === null
        ? null
        : { limit: budget, remaining: integer(headers, "x-key-budget-remaining") ?? 0, resetsAt: unixSeconds(headers, "x-key-budget-reset") ?? new Date(0) },
    keyExpiresAt: expires ? new Date(expires) : null,
    retryAfterSeconds: integer(headers, "retry-after"),
    idempotentReplayed: headers.get("idempotent-replayed") === "true",
  };
}
