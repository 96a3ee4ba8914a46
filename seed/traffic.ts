import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { quotaThresholdsReached, raiseQuotaAlerts } from "@/lib/alerts/raise";
import { DEFAULT_QUOTA_ALERT_THRESHOLDS } from "@/core/enums";
import { callsThisMonth, spreadMonthlyUsage } from "@/db/queries/monthly-usage";
import { ensureRequestDetailPartitions, ensureRequestLogPartitions } from "@/db/partitions";
import { DETAIL_RETENTION_DAYS } from "@/core/request-log";
import { rebuildRollups } from "@/db/rollups/statements";
import { buildUsageSnapshots } from "@/lib/usage/snapshots";
import { apiKeys, requestDetails, requestLog } from "@/db/schema";
import { utcMonthStart } from "@/core/time";
import { newRequestId } from "@/core/ids";
import { accessCovers } from "@/lib/keys/access";
import { PLANS } from "@/lib/plans/catalog";
import { ORGS } from "./accounts";
import { DAY, HOUR, KEYS, lifeOf, STRAY_IP, type DemoKey } from "./keys";

/**
 * The demo API's endpoints: their share of calls and their typical (median) time, fast reads to a
 * slow analytics query and PDF rendering, so the Usage page has latency worth reading (docs/features/usage-analytics.md).
 */
const ENDPOINTS: { endpoint: string; weight: number; path: () => string; ms: number; created?: boolean }[] = [
  { endpoint: "GET /v1/invoices", weight: 26, path: () => "/v1/invoices?limit=25", ms: 38 },
  { endpoint: "GET /v1/invoices/{id}", weight: 18, path: () => `/v1/invoices/in_${token(12)}`, ms: 14 },
  { endpoint: "POST /v1/invoices", weight: 10, path: () => "/v1/invoices", ms: 62, created: true },
  { endpoint: "POST /v1/invoices/{id}/finalize", weight: 6, path: () => `/v1/invoices/in_${token(12)}/finalize`, ms: 85 },
  { endpoint: "POST /v1/invoices/{id}/pay", weight: 4, path: () => `/v1/invoices/in_${token(12)}/pay`, ms: 140 },
  { endpoint: "GET /v1/customers", weight: 11, path: () => "/v1/customers?limit=50", ms: 30 },
  { endpoint: "POST /v1/customers", weight: 5, path: () => "/v1/customers", ms: 48, created: true },
  { endpoint: "GET /v1/products", weight: 8, path: () => "/v1/products", ms: 16 },
  { endpoint: "GET /v1/analytics", weight: 7, path: () => "/v1/analytics?from=2026-01-01", ms: 420 },
  { endpoint: "POST /v1/pdf/generate", weight: 5, path: () => "/v1/pdf/generate", ms: 850 },
];

/**
 * Two incidents in the demo's month, so the error rate and the latency charts have a spike to
 * show: the PDF renderer and the analytics store failing (most of their calls 503, slowly) and a
 * database failover (a share of every call 500). Hours are UTC, days before today.
 */
const INCIDENTS: { daysAgo: number; fromHour: number; minutes: number; endpoints: string[] | "all"; status: number; failing: number; slowdown: number }[] = [
  { daysAgo: 3, fromHour: 13, minutes: 180, endpoints: ["POST /v1/pdf/generate", "GET /v1/analytics"], status: 503, failing: 0.9, slowdown: 6 },
  { daysAgo: 12, fromHour: 9, minutes: 150, endpoints: "all", status: 500, failing: 0.4, slowdown: 2.5 },
];

function incidentAt(at: number, endpoint: string, today: number) {
  return INCIDENTS.find((incident) => {
    const start = today - incident.daysAgo * DAY + incident.fromHour * HOUR;
    return at >= start && at < start + incident.minutes * 60_000 && (incident.endpoints === "all" || incident.endpoints.includes(endpoint));
  });
}

// A fixed generator so every fresh database gets the same demo history.
let state = 20261123;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function token(length: number): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * 62)];
  return out;
}

function pick<T extends { weight: number }>(items: T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let roll = random() * total;
  for (const item of items) {
    roll -= item.weight;
    if (roll <= 0) return item;
  }
  return items[items.length - 1]!;
}

/** The error code the API gives each status the demo traffic has. */
const ERROR_CODES: Partial<Record<number, string>> = {
  400: "validation_failed",
  401: "api_key_revoked",
  404: "not_found",
  409: "invoice_not_draft",
  429: "rate_limited",
  500: "internal_error",
};

function statusFor(endpoint: (typeof ENDPOINTS)[number], revoked: boolean): number {
  if (revoked) return 401;
  const roll = random();
  if (roll < 0.012) return 429;
  if (roll < 0.017) return random() < 0.7 ? 500 : 503;
  if (roll < 0.04) return 404;
  if (roll < 0.07) return 400;
  if (roll < 0.078) return endpoint.endpoint.includes("finalize") ? 409 : 422;
  return endpoint.created ? 201 : 200;
}

/**
 * A duration around a typical one: log-normal (Box–Muller from two uniform draws), as response
 * times are, with a p99 about 3 times the median.
 */
function logNormalMs(median: number, u1: number, u2: number): number {
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return Math.max(1, Math.round(median * Math.exp(0.45 * z)));
}

/** Hour-of-day weight (UTC): quiet nights, a busy European and American working day. */
function hourWeight(hour: number): number {
  return 0.15 + Math.exp(-((hour - 14) ** 2) / 18);
}

/** A key's own starting point for the generator (FNV-1a of its id): its traffic does not depend on which keys were seeded before it. */
function seedOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash | 0;
}

function trafficFor(key: DemoKey, now: Date): (typeof requestLog.$inferInsert)[] {
  // A re-run seeds only the keys without traffic; each key's traffic is the same either way.
  state = seedOf(key.id);
  const rows: (typeof requestLog.$inferInsert)[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const hourWeights = Array.from({ length: 24 }, (_, h) => hourWeight(h));
  const weightSum = hourWeights.reduce((a, b) => a + b, 0);
  const { createdAt, expiresAt } = lifeOf(key, now);
  // A restricted key's client mostly calls what the key may do; now and then a call beyond its
  // access, or from an address beyond its allowlist, is refused.
  const restrictions = key.restrictions;
  const reachable = ENDPOINTS.filter(
    (e) => !restrictions || accessCovers(restrictions.access, restrictions.scopes, ...(e.endpoint.split(" ") as [string, string])),
  );
  const beyondReach = ENDPOINTS.filter((e) => !reachable.includes(e));
  /** One call of the key's client at `at` (epoch ms), refused if the key was revoked by then. */
  const callAt = (at: number, revoked: boolean): typeof requestLog.$inferInsert => {
    const stray = restrictions && restrictions.ipAllowlist.length > 0 && random() < 0.01;
    const beyond = Boolean(restrictions) && !stray && random() < 0.02 && beyondReach.length > 0;
    const endpoint = pick(beyond ? beyondReach : reachable);
    const refusal = revoked ? null : stray ? "ip_not_allowed" : beyond ? "api_key_scope_insufficient" : null;
    const answered = refusal ? 403 : statusFor(endpoint, revoked);
    const refusedEarly = revoked || refusal || answered === 429;
    // No extra draws of the generator for the incidents: the rest of the demo stays as it was.
    const incident = refusedEarly ? undefined : incidentAt(at, endpoint.endpoint, today);
    const status = incident && answered < 400 && (at % 1000) / 1000 < incident.failing ? incident.status : answered;
    const duration = refusedEarly ? 2 + Math.floor(random() * 4) : logNormalMs(endpoint.ms * (incident?.slowdown ?? 1), random(), random());
    // The random part from the fixed generator, as many draws as before: the rest of the demo stays as it was.
    const requestId = newRequestId(at, token(20));
    return {
      orgId: key.orgId,
      apiKeyId: key.id,
      requestId,
      // The client's trace, as one that sends a traceparent would have it: derived from the id, so no draw is added either.
      traceId: createHash("md5").update(requestId).digest("hex"),
      method: endpoint.endpoint.split(" ")[0]!,
      path: endpoint.path(),
      endpoint: endpoint.endpoint,
      status,
      durationMs: duration,
      ip: stray ? STRAY_IP : key.ips[Math.floor(random() * key.ips.length)]!,
      userAgent: key.userAgent,
      errorCode: refusal ?? ERROR_CODES[status] ?? null,
      createdAt: new Date(at),
    };
  };
  for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
    if (daysAgo > key.createdDaysAgo) continue;
    const dayStart = today - daysAgo * DAY;
    const weekday = new Date(dayStart).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const revokedAt = key.revokedDaysAgo === undefined ? Infinity : today - key.revokedDaysAgo * DAY + 11 * 3600 * 1000;
    // A revoked key's client keeps trying for a couple of days, then is switched off.
    if (dayStart > revokedAt + 2 * DAY) continue;
    const volume = Math.round(key.dailyRequests * (weekend ? 0.35 : 1) * (0.8 + random() * 0.4));
    for (let i = 0; i < volume; i++) {
      let hour = 0;
      let roll = random() * weightSum;
      while (hour < 23 && (roll -= hourWeights[hour]!) > 0) hour++;
      const at = dayStart + hour * 3600 * 1000 + Math.floor(random() * 3600 * 1000);
      // A key's client calls while the key lives; an expired key's client was switched off with it.
      if (at > now.getTime() || at < createdAt.getTime() || (expiresAt && at >= expiresAt.getTime())) continue;
      rows.push(callAt(at, at >= revokedAt));
    }
  }
  // A rolled key's client keeps calling the old value until it is switched over, at any hour: a
  // call in each hour since the roll, so the key is seen in use during its overlap (docs/features/api-keys.md#roll)
  // even when the roll fell in the quiet night hours.
  if (key.rolled) {
    const rolledAt = now.getTime() - key.rolled.hoursAgo * HOUR;
    for (let at = rolledAt + Math.floor(random() * HOUR); at < now.getTime(); at += HOUR) rows.push(callAt(at, false));
  }
  return rows;
}

/** What the API answered each failing demo call with, and what a failing POST sent: the requests' details pages. */
const DEMO_ERRORS: Partial<Record<number, { message: string; sent?: Record<string, string>; details?: { path: string; message: string }[] }>> = {
  400: {
    message: "The request is not valid: see details.",
    sent: {
      "POST /v1/invoices": '{"customer":"cus_8fJ2kQ0aLr","currency":"EUR","lines":[{"description":"Consulting, November","quantity":0,"unit_amount":15000}]}',
      "POST /v1/customers": '{"name":"Northwind Traders","email":"billing@northwind"}',
    },
    details: [{ path: "body", message: "Invalid input" }],
  },
  401: { message: "This API key has been revoked. Create a new key in the dashboard." },
  403: { message: "This API key cannot make this request: an admin can change the key's access or IP allowlist in the dashboard." },
  404: { message: "No such resource in this organization." },
  409: { message: "This invoice is open: only drafts can be finalized." },
  422: { message: "The request could not be processed.", sent: { "POST /v1/invoices": '{"customer":"cus_3Tn0pXw2Qe","currency":"EUR","lines":[]}' } },
  429: { message: "Rate limit of 60 requests per minute exceeded for this key. Retry in 12 s." },
  500: { message: "Something went wrong on our side. Contact support with the request id." },
  503: { message: "The service is temporarily unavailable. Retry with backoff." },
};

function demoDetail(row: typeof requestLog.$inferInsert): typeof requestDetails.$inferInsert | null {
  const failure = DEMO_ERRORS[row.status];
  if (!failure) return null;
  const { message } = failure;
  const sent = row.method === "POST" ? (failure.sent?.[row.endpoint] ?? "{}") : null;
  const code = row.errorCode ?? (row.status >= 500 ? "internal_error" : "request_failed");
  const answer = JSON.stringify({
    error: { code, message, request_id: row.requestId, ...(row.status === 400 && sent && failure.details ? { details: failure.details } : {}) },
  });
  return {
    orgId: row.orgId,
    createdAt: row.createdAt!,
    requestId: row.requestId,
    errorMessage: message,
    requestBody: sent,
    requestBodyBytes: sent === null ? null : Buffer.byteLength(sent),
    responseBody: answer,
    responseBodyBytes: Buffer.byteLength(answer),
  };
}

/** 30 days of each demo key's requests, their rollups, this month's usage and the quota alerts it raised. */
export async function seedTraffic(db: Db, now: Date): Promise<void> {
  await ensureRequestLogPartitions(db, new Date(now.getTime() - 31 * DAY), now);
  await ensureRequestDetailPartitions(db, new Date(now.getTime() - DETAIL_RETENTION_DAYS * DAY), now);
  for (const key of KEYS) {
    const [existing] = await db.select({ id: requestLog.id }).from(requestLog).where(eq(requestLog.apiKeyId, key.id)).limit(1);
    if (existing || key.dailyRequests === 0) continue;
    const rows = trafficFor(key, now);
    for (let i = 0; i < rows.length; i += 1000) await db.insert(requestLog).values(rows.slice(i, i + 1000));
    const details = rows.flatMap((row) => demoDetail(row) ?? []);
    for (let i = 0; i < details.length; i += 1000) await db.insert(requestDetails).values(details.slice(i, i + 1000));
    const last = rows.reduce<(typeof rows)[number] | null>(
      (latest, row) => (row.status !== 401 && (!latest || row.createdAt! > latest.createdAt!) ? row : latest),
      null,
    );
    if (last) await db.update(apiKeys).set({ lastUsedAt: last.createdAt, lastUsedIp: last.ip, lastUsedEndpoint: last.endpoint }).where(eq(apiKeys.id, key.id));
  }
  await rebuildRollups(
    db,
    ORGS.map((org) => org.id),
  );
  await buildUsageSnapshots(db);
  // The month's quota counts what passed authentication and rate limiting (docs/features/plans.md).
  for (const org of ORGS) {
    const quota = PLANS[org.plan].monthlyCalls;
    await spreadMonthlyUsage(db, org.id, quota, now);
    // The alerts the gateway would have raised on the way to this month's calls (docs/features/alerts.md).
    if (quota) {
      const thresholds = quotaThresholdsReached(quota, await callsThisMonth(db, org.id, now), DEFAULT_QUOTA_ALERT_THRESHOLDS);
      await raiseQuotaAlerts(db, { orgId: org.id, month: utcMonthStart(now), quota, thresholds, at: now });
    }
  }
}
