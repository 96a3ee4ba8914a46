import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { API_KEY_PREFIXES, apiKeyHint, hashApiKey, parseApiKey } from "@/lib/keys/format";
import { describeNeed, isSafeMethod, requiredAccess, type RequiredAccess } from "@/lib/keys/access";
import { clientAddress } from "@/lib/client-address";
import { normalizeClientIp } from "@/lib/keys/ip-allowlist";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, PLANS } from "@/lib/plans/catalog";
import { API_RESOURCES, PLAN_VALUES } from "@/core/enums";
import { nextUtcMonth } from "@/core/time";
import { BUDGET_PERIOD_LABELS } from "@/core/key-budget";
import type { ApiEnv } from "./env";
import { ApiError } from "./errors";
import { renderError } from "./render-error";
import { serviceMetrics } from "@/lib/metrics/service-metrics";
import { UsageAlerts } from "@/lib/alerts/usage-alerts";
import { admissionFor, findKeyOwner, type Admission, type KeyOwner } from "@/db/queries/gateway";
import type { PlanRule } from "@/db/queries/admission-statement";
import { pruneRateWindows } from "@/db/queries/rate-windows";
import { RATE_WINDOW_MS, rateWindowStart, withinRateLimit } from "@/core/rate-window";
import { writeRequestLog } from "@/db/queries/request-log-writer";
import { credentialsOf, storablePath, storableText } from "./request-capture";
import { bodyCaptureEnabled, requestDetailOf } from "./request-details";
import { log } from "@/core/log";
import { inSpan } from "@/core/tracing";
import { PhaseTimings } from "./server-timing";

/** The socket's address, or behind proxies of ours the X-Forwarded-For entry they vouch for (lib/client-address.ts). */
export function clientIp(c: Context<ApiEnv>): string | null {
  return clientAddress(c.env?.incoming?.socket.remoteAddress, c.req.header("x-forwarded-for"));
}

/** A restricted key's scope refusal, naming the resource and the permission the request needs. */
function scopeRefusal(admission: Admission, need: RequiredAccess | null): ApiError {
  const change = "An admin can change the key's access in the dashboard.";
  if (!need) return ApiError.of("api_key_scope_insufficient", `This API key is read only: it can send GET requests only. ${change}`);
  const needs = `The request needs the ${need.permission} permission on ${API_RESOURCES[need.resource].noun}.`;
  const key = admission.access === "read_only" ? "This API key is read only: it cannot" : "This API key cannot";
  return ApiError.of("api_key_scope_insufficient", `${key} ${describeNeed(need)}. ${needs} ${change}`);
}

/** The template of the route that answers the request ("/v1/invoices/:id"), or null when none does and it will be a 404. */
export function routeTemplate(c: Context<ApiEnv>): string | null {
  // Hono matches every handler before the first runs: the last is the route's, or a "/v1/*" middleware.
  const template = routePath(c, -1);
  return !template || template.includes("*") ? null : template;
}

/** "GET /v1/invoices/{id}": the route template, so the audit log groups calls by endpoint. */
export function endpointOf(method: string, template: string | null): string {
  return `${method} ${template?.replace(/:(\w+)/g, "{$1}") ?? "(unmatched)"}`;
}

/**
 * What the key's access must cover. A request no route answers (OPTIONS, a trailing slash, a path
 * of no resource) needs nothing: every key that passes the checks before it gets the same 404
 * route_not_found, whatever it may do. A real route keeps the checks' order.
 */
function accessAsked(c: Context<ApiEnv>, template: string | null): { need: RequiredAccess | null; safe: boolean } {
  if (!template) return { need: null, safe: true };
  return { need: requiredAccess(c.req.method, c.req.path), safe: isSafeMethod(c.req.method) };
}

/** RFC 3339 in UTC to the second, as X-API-Key-Expires gives it (GitHub's token-expiration header, in ISO form). */
function rfc3339(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The plan table, built into the admission statement: `decide` below refuses with what it returns. */
export const PLAN_RULES: PlanRule[] = PLAN_VALUES.map((plan) => ({
  plan,
  apiAccess: PLANS[plan].apiAccess,
  customRateLimit: PLANS[plan].customRateLimit,
  rateLimit: DEFAULT_RATE_LIMIT_PER_MINUTE,
  quota: PLANS[plan].monthlyCalls,
}));
const admitRequest = admissionFor(PLAN_RULES);

/**
 * The refusals the key's standing alone decides, in their order: the key ended (revoked, expired),
 * the address off its allowlist (`ip` canonical, null when unknown), its plan without API access.
 * Sets X-API-Key-Expires for a key still valid. The gateway's decision starts with them, and the
 * MCP endpoint's own messages, which count nothing, are refused by them alone (docs/features/mcp.md).
 */
export function admitStanding(c: Context<ApiEnv>, key: Pick<Admission, "revoked" | "expired" | "expiresAt" | "ipAllowed" | "plan">, ip: string | null): void {
  if (key.revoked) throw ApiError.of("api_key_revoked", "This API key has been revoked. Create a new key in the dashboard.");
  if (key.expired) throw ApiError.of("api_key_expired", `This API key expired at ${rfc3339(key.expiresAt!)}. Create a new key in the dashboard.`);
  if (key.expiresAt) c.header("X-API-Key-Expires", rfc3339(key.expiresAt));
  if (!key.ipAllowed) {
    const from = ip ? `from ${ip}` : "from an address the server cannot read";
    throw ApiError.of(
      "ip_not_allowed",
      `This API key cannot be used ${from}: the address is not on the key's IP allowlist. An admin can change the allowlist in the dashboard.`,
    );
  }
  const plan = PLANS[key.plan];
  if (!plan.apiAccess) {
    throw ApiError.of("plan_no_api_access", `The ${plan.label} plan has no API access. An owner can change the plan in the dashboard.`);
  }
}

/**
 * The access and budget refusals, in their order, from what the admission statement found and
 * counted: it counts a request in its key's minute only when the key is active, from an allowed
 * address, on a plan with API access and with access to what the request needs; in the key's
 * budget only when that minute still had room; and in the month only when the budget did too.
 * Sets the rate-limit, budget and quota headers.
 */
function decide(c: Context<ApiEnv>, admission: Admission, ask: { need: RequiredAccess | null; ip: string | null }, now: number): void {
  admitStanding(c, admission, ask.ip);
  if (!admission.scopeAllowed) throw scopeRefusal(admission, ask.need);
  const plan = PLANS[admission.plan];

  const { rateLimit, rateCount, quota, quotaUsed } = admission;
  const used = rateCount ?? 0;
  const resetSeconds = Math.ceil((rateWindowStart(now) + RATE_WINDOW_MS) / 1000);
  c.header("X-RateLimit-Limit", String(rateLimit));
  c.header("X-RateLimit-Remaining", String(Math.max(0, rateLimit - used)));
  c.header("X-RateLimit-Reset", String(resetSeconds));
  // A rate-limited client still learns where its budget and its month stand.
  const { budget } = admission;
  if (budget) {
    c.header("X-Key-Budget-Limit", String(budget.limit));
    c.header("X-Key-Budget-Remaining", String(Math.max(0, budget.limit - budget.used)));
    c.header("X-Key-Budget-Reset", String(budget.resetsAt));
  }
  if (quota !== null) {
    c.header("X-Quota-Limit", String(quota));
    c.header("X-Quota-Remaining", String(Math.max(0, quota - quotaUsed)));
  }
  if (!withinRateLimit(used, rateLimit)) {
    const retryAfter = Math.max(1, resetSeconds - Math.floor(now / 1000));
    throw ApiError.of("rate_limited", `Rate limit of ${rateLimit} requests per minute exceeded for this key. Retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  if (budget?.exceeded) {
    const retryAfter = Math.max(1, Math.ceil(budget.resetsAt - now / 1000));
    throw ApiError.of(
      "key_budget_exceeded",
      `This API key's budget of ${budget.limit.toLocaleString("en-US")} requests ${BUDGET_PERIOD_LABELS[budget.period].per} is used up. It resets at ${rfc3339(new Date(budget.resetsAt * 1000))} (UTC); an admin can change the budget in the dashboard.`,
      { headers: { "Retry-After": String(retryAfter) } },
    );
  }
  if (used === 1 && Math.random() < 0.05)
    void pruneRateWindows(new Date(now - 5 * RATE_WINDOW_MS)).catch((error: unknown) => log.error({ err: error }, "Pruning rate-limit windows failed"));
  if (quota !== null && !admission.quotaCounted) {
    const retryAfter = Math.ceil((nextUtcMonth(new Date(now)).getTime() - now) / 1000);
    throw ApiError.of(
      "monthly_quota_exceeded",
      `The ${plan.label} plan's ${quota.toLocaleString("en-US")} API calls for this month are used up. The quota resets at the start of next month (UTC).`,
      {
        headers: { "Retry-After": String(retryAfter) },
      },
    );
  }
}

/** The X-API-Key header's value, refused before any database lookup when it is missing or not of a key's shape. */
export function presentedKey(header: string | undefined, refused: (error: ApiError) => ApiError): string {
  const presented = header?.trim();
  if (!presented) throw refused(ApiError.of("api_key_missing", "Send your API key in the X-API-Key header."));
  if (!parseApiKey(presented).ok) {
    const shape = `Live keys start with ${API_KEY_PREFIXES.live}, test keys with ${API_KEY_PREFIXES.test}, and 32 letters and digits follow.`;
    throw refused(ApiError.of("api_key_invalid", `This is not a valid API key. ${shape}`));
  }
  return presented;
}

/** A key of the right shape that no key row matches. */
export function unknownKey(presented: string): ApiError {
  return ApiError.of("api_key_invalid", `No API key matches ${apiKeyHint(presented)}.`);
}

/**
 * The /v1 gateway (docs/features/api.md): request id, key authentication, plan, per-key rate limit, monthly
 * quota, then the handler; every request whose key maps to an organization gets its audit row,
 * written before the response is handed back. Every refusal is an ApiError thrown: before the key
 * is known the app's error handler renders it (no audit row: no organization to give it to);
 * from the admission on, it is caught and rendered here, so the row is written after it.
 */
export function gateway(): MiddlewareHandler<ApiEnv> {
  const usageAlerts = new UsageAlerts();
  const captureBodies = bodyCaptureEnabled();
  const metrics = serviceMetrics();
  const refused = (error: ApiError) => (metrics?.refused(error.code), error);
  return async (c, next) => {
    const started = performance.now();
    const timings = new PhaseTimings(started);
    const now = c.get("receivedAt");
    const requestId = c.get("requestId");

    const presented = presentedKey(c.req.header("x-api-key"), refused);
    const keyHash = hashApiKey(presented);
    const template = routeTemplate(c);
    const failed = (error: unknown) => {
      // A failure of the gateway's own checks (the database, say) answers with the request id; the
      // cause goes to the server log.
      log.error({ err: error, requestId, traceId: c.get("traceId"), method: c.req.method, route: template ?? "(no route)" }, "Gateway failure");
      return renderError(c, ApiError.internal());
    };
    const ip = clientIp(c);
    const ask = { keyHash, at: new Date(now), ...accessAsked(c, template), ip: normalizeClientIp(ip) };
    let admission: Admission | null = null;
    let key: KeyOwner | null;
    let watching: Promise<unknown> | undefined;
    try {
      key = admission = await timings.time("admission", () => inSpan("gateway.admission", () => admitRequest(ask)));
    } catch (error) {
      c.res = failed(error);
      // The request still gets its audit row when its key can be read without the counters.
      key = await findKeyOwner(keyHash).catch(() => null);
      if (!key) return c.res;
    }
    if (!key) throw refused(unknownKey(presented));
    // Nothing stored about a request keeps a credential it carried (docs/security.md#request-details-keep-no-credential): read once, for the
    // log row below and the idempotency step's stored answer.
    const secrets = credentialsOf((name) => c.req.header(name));
    c.set("credentials", secrets);
    if (admission) {
      let admitted = false;
      try {
        decide(c, admission, ask, now);
        admitted = true;
        c.set("caller", { keyId: admission.keyId, orgId: admission.orgId, mode: admission.mode, plan: admission.plan });
        await timings.time("handler", () => inSpan("api.handler", next));
      } catch (error) {
        c.res = error instanceof ApiError ? renderError(c, admitted ? error : refused(error)) : failed(error);
      }
      // Beside the log write; an alert that cannot be raised now is asked again by the next request.
      watching = usageAlerts
        .watch(admission, now)
        ?.catch((error: unknown) => log.error({ err: error, requestId, traceId: c.get("traceId") }, "Raising usage alerts failed"));
    }
    // The path and query as sent: the raw URL past its origin, without parsing it again.
    const url = c.req.url;
    const pathAndQuery = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const userAgent = c.req.header("user-agent");
    const durationMs = Math.round(performance.now() - started);
    try {
      const detail = await requestDetailOf(c, secrets, captureBodies);
      const entry = {
        orgId: key.orgId,
        apiKeyId: key.keyId,
        requestId,
        method: c.req.method,
        path: storablePath(pathAndQuery, secrets),
        endpoint: endpointOf(c.req.method, template),
        status: c.res.status,
        durationMs,
        ip,
        userAgent: userAgent === undefined ? null : storableText(userAgent.slice(0, 512), secrets),
        errorCode: c.get("errorCode") ?? null,
        at: new Date(now),
        // A refused ended key is no use of it.
        touchesKey: !key.revoked && !admission?.expired,
        traceId: c.get("traceId"),
        detail,
      };
      await timings.time("log", () => inSpan("request_log.write", () => writeRequestLog(entry)));
    } catch (error) {
      // No response leaves without its audit row (docs/features/api.md#the-request-log): this one is replaced by the failure.
      c.res = failed(error);
    }
    await watching;
    c.res.headers.set("Server-Timing", timings.header());
  };
}
