import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { API_KEY_LENGTH, API_KEY_PREFIX, apiKeyHint, hashApiKey, parseApiKey } from "@/lib/api-key-format";
import { PLANS, rateLimitFor } from "@/lib/plans";
import { nextUtcMonth, utcMonthStart } from "@/db/time";
import type { ApiEnv } from "./env";
import { ApiError } from "./errors";
import { countInRateWindow, countMonthlyCall, findKeyByHash, monthlyCount, pruneRateWindows, writeRequestLog, type KeyRecord } from "@/db/queries/gateway";

const WINDOW_MS = 60_000;

function clientIp(c: Context<ApiEnv>): string | null {
  if (process.env.TRUST_PROXY === "true") {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket.remoteAddress ?? null;
}

/** "GET /v1/invoices/{id}": the route template, so the audit log groups calls by endpoint. */
function endpointOf(c: Context<ApiEnv>): string {
  const template = routePath(c, -1);
  const path = !template || template.includes("*") ? "(unmatched)" : template.replace(/:(\w+)/g, "{$1}");
  return `${c.req.method} ${path}`;
}

/** Checks the key, plan, rate limit and quota in the order of SPEC §4, or throws the refusal. */
async function admit(c: Context<ApiEnv>, key: KeyRecord, now: number): Promise<void> {
  if (key.revoked) throw ApiError.of("api_key_revoked", "This API key has been revoked. Create a new key in the dashboard.");
  const plan = PLANS[key.plan];
  if (!plan.apiAccess) {
    throw ApiError.of("plan_no_api_access", `The ${plan.label} plan has no API access. An owner can change the plan in the dashboard.`);
  }

  const limit = rateLimitFor(key.plan, key.rateLimitPerMinute);
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  const used = await countInRateWindow(key, new Date(windowStart));
  const resetSeconds = Math.ceil((windowStart + WINDOW_MS) / 1000);
  c.header("X-RateLimit-Limit", String(limit));
  c.header("X-RateLimit-Remaining", String(Math.max(0, limit - used)));
  c.header("X-RateLimit-Reset", String(resetSeconds));
  const month = utcMonthStart(new Date(now));
  const quota = plan.monthlyCalls;
  const setQuotaHeaders = (count: number) => {
    if (quota === null) return;
    c.header("X-Quota-Limit", String(quota));
    c.header("X-Quota-Remaining", String(Math.max(0, quota - count)));
  };
  if (used > limit) {
    // Not counted against the quota, but the client still learns where it stands.
    if (quota !== null) setQuotaHeaders(await monthlyCount(key.orgId, month));
    const retryAfter = Math.max(1, resetSeconds - Math.floor(now / 1000));
    throw ApiError.of("rate_limited", `Rate limit of ${limit} requests per minute exceeded for this key. Retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  if (used === 1 && Math.random() < 0.05) void pruneRateWindows(new Date(now - 5 * WINDOW_MS)).catch((error) => console.error("Pruning rate-limit windows failed", error));

  const counted = await countMonthlyCall(key.orgId, month, quota);
  if (quota === null) return;
  setQuotaHeaders(counted ?? (await monthlyCount(key.orgId, month)));
  if (counted === null) {
    const retryAfter = Math.ceil((nextUtcMonth(new Date(now)).getTime() - now) / 1000);
    throw ApiError.of("monthly_quota_exceeded", `The ${plan.label} plan's ${quota.toLocaleString("en-US")} API calls for this month are used up. The quota resets at the start of next month (UTC).`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/**
 * The /v1 gateway (SPEC §4): request id, key authentication, plan, per-key rate limit, monthly
 * quota, then the handler; every request whose key maps to an organization gets its audit row,
 * written before the response is handed back.
 */
export function gateway(renderError: (c: Context<ApiEnv>, error: ApiError) => Response, clock: () => number = Date.now): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const started = performance.now();
    const now = clock();
    const requestId = c.get("requestId");

    const presented = c.req.header("x-api-key")?.trim();
    if (!presented) return renderError(c, ApiError.of("api_key_missing", "Send your API key in the X-API-Key header."));
    const format = parseApiKey(presented);
    if (!format.ok) return renderError(c, ApiError.of("api_key_invalid", `This is not a valid API key. Keys start with ${API_KEY_PREFIX} and have ${API_KEY_LENGTH} characters.`));
    const key = await findKeyByHash(hashApiKey(presented));
    if (!key) return renderError(c, ApiError.of("api_key_invalid", `No API key matches ${apiKeyHint(presented)}.`));

    try {
      await admit(c, key, now);
      c.set("caller", { keyId: key.keyId, orgId: key.orgId, plan: key.plan });
      await next();
    } catch (error) {
      // A failure of the gateway's own checks (the database, say) still answers with the request
      // id and gets its audit row; the cause goes to the server log.
      if (!(error instanceof ApiError)) console.error(`Gateway failure in ${c.req.method} ${c.req.path} (${requestId})`, error);
      c.res = renderError(c, error instanceof ApiError ? error : ApiError.internal());
    }
    await writeRequestLog({
      orgId: key.orgId,
      apiKeyId: key.keyId,
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname + new URL(c.req.url).search,
      endpoint: endpointOf(c),
      status: c.res.status,
      durationMs: Math.round(performance.now() - started),
      ip: clientIp(c),
      userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
      at: new Date(now),
      touchesKey: !key.revoked,
    });
  };
}
