import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import { INVITATION_LIFETIME_DAYS } from "@/lib/invitation-link";
import { mintApiKey } from "@/lib/api-key-format";
import { hashPassword } from "@/lib/auth/password";
import { PLANS } from "@/lib/plans";
import type { Db } from "./index";
import { watchKeyExpiries } from "./key-expiries";
import { seedWebhooks } from "./seed-webhooks";
import { quotaThresholdsReached, raiseQuotaAlerts } from "./alerts";
import { ensureRequestLogPartitions } from "./partitions";
import { rebuildDailyRollups } from "./rollups";
import { callsThisMonth, spreadMonthlyUsage } from "./monthly-usage";
import { accessCovers, restrictionChanges } from "@/lib/api-access";
import { DEFAULT_QUOTA_ALERT_THRESHOLDS, type KeyRestrictions, type Plan, type RevokeReason, type Role } from "./enums";
import { utcMonthStart } from "./time";
import { activityLog, apiKeys, invitations, memberships, organizations, requestLog, users } from "./schema";
import { mintInvitationToken } from "@/lib/invitation-token";
import { DEMO_PASSWORD, DEMO_USERS } from "./seed-accounts";

const ORGS: { id: string; name: string; slug: string; plan: Plan }[] = [
  { id: "org_demo_acme", name: "Acme Inc", slug: "acme", plan: "pro" },
  { id: "org_demo_globex", name: "Globex", slug: "globex", plan: "trial" },
  { id: "org_demo_solo", name: "Solo Studio", slug: "solo-studio", plan: "solo" },
];

const MEMBERSHIPS: { orgId: string; userId: string; role: Role }[] = [
  { orgId: "org_demo_acme", userId: "usr_demo_owner", role: "owner" },
  { orgId: "org_demo_acme", userId: "usr_demo_admin", role: "admin" },
  { orgId: "org_demo_acme", userId: "usr_demo_member", role: "member" },
  { orgId: "org_demo_acme", userId: "usr_demo_guest", role: "guest" },
  { orgId: "org_demo_globex", userId: "usr_demo_globex", role: "owner" },
  { orgId: "org_demo_globex", userId: "usr_demo_multi", role: "admin" },
  { orgId: "org_demo_solo", userId: "usr_demo_multi", role: "owner" },
];

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface DemoKey {
  id: string;
  orgId: string;
  name: string;
  createdBy: string;
  createdDaysAgo: number;
  revokedDaysAgo?: number;
  revokeReason?: RevokeReason;
  revokeNote?: string;
  /** Days from creation to expiry; none: the key never expires. */
  lifetimeDays?: number;
  /** Rolled this many hours ago, the old value working for `overlapHours` after it (SPEC §7). */
  rolled?: { hoursAgo: number; overlapHours: number; replacementId: string };
  /** The key this one replaced when it was rolled. */
  replaces?: string;
  /** What the key may do and from where (SPEC §9); full access from anywhere when left out. */
  restrictions?: KeyRestrictions;
  /** Typical requests on a weekday; the seed's traffic follows a daily rhythm around it. */
  dailyRequests: number;
  userAgent: string;
  ips: string[];
}

// The demo people sign in from one office browser; their history entries say so.
const DEMO_IP = "198.51.100.7";
const DEMO_BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

const ZAPIER_ACCESS: KeyRestrictions = { access: "restricted", scopes: { invoices: "write", customers: "write" }, ipAllowlist: ["203.0.113.52/31"] };
/** Where a demo key's refused calls come from: a developer's laptop, not on any allowlist. */
const STRAY_IP = "198.51.100.201";

const KEYS: DemoKey[] = [
  { id: "key_demo_acme_prod", orgId: "org_demo_acme", name: "Production billing server", createdBy: "usr_demo_owner", createdDaysAgo: 90, dailyRequests: 170, userAgent: "invoicing-node/2.3.1 node/20.20.2", ips: ["203.0.113.10", "203.0.113.11"] },
  { id: "key_demo_acme_staging", orgId: "org_demo_acme", name: "Staging", createdBy: "usr_demo_admin", createdDaysAgo: 60, dailyRequests: 35, userAgent: "curl/8.5.0", ips: ["198.51.100.24"] },
  { id: "key_demo_acme_ios", orgId: "org_demo_acme", name: "iOS app backend", createdBy: "usr_demo_admin", createdDaysAgo: 21, dailyRequests: 45, userAgent: "okhttp/4.12.0", ips: ["192.0.2.77", "192.0.2.78"] },
  { id: "key_demo_acme_legacy", orgId: "org_demo_acme", name: "Legacy CSV importer", createdBy: "usr_demo_owner", createdDaysAgo: 200, revokedDaysAgo: 9, revokeReason: "replaced", revokeNote: "Imports now run through the production billing server.", dailyRequests: 25, userAgent: "python-requests/2.32.3", ips: ["198.51.100.90"] },
  // SPEC §7's states: a partner key that expires in 3 days and was never set up (so also unused
  // for 30 days), a load-test key that expired, and a pair rolled 4 hours ago whose old value
  // is still in use during its 24-hour overlap.
  // SPEC §9's: the partner's key is read only, and the Zapier pair may write invoices and
  // customers only, from Zapier's two addresses (a few calls beyond either are refused).
  {
    id: "key_demo_acme_partner",
    orgId: "org_demo_acme",
    name: "Partner sandbox (Initech)",
    createdBy: "usr_demo_admin",
    createdDaysAgo: 33,
    lifetimeDays: 36,
    restrictions: { access: "read_only", scopes: {}, ipAllowlist: [] },
    dailyRequests: 0,
    userAgent: "",
    ips: [],
  },
  { id: "key_demo_acme_loadtest", orgId: "org_demo_acme", name: "Black Friday load test", createdBy: "usr_demo_admin", createdDaysAgo: 40, lifetimeDays: 30, dailyRequests: 60, userAgent: "k6/0.52.0 (https://k6.io/)", ips: ["198.51.100.140"] },
  {
    id: "key_demo_acme_zapier_old",
    orgId: "org_demo_acme",
    name: "Zapier integration",
    createdBy: "usr_demo_owner",
    createdDaysAgo: 75,
    rolled: { hoursAgo: 4, overlapHours: 24, replacementId: "key_demo_acme_zapier" },
    restrictions: ZAPIER_ACCESS,
    dailyRequests: 30,
    userAgent: "Zapier/1.0",
    ips: ["203.0.113.52"],
  },
  {
    id: "key_demo_acme_zapier",
    orgId: "org_demo_acme",
    name: "Zapier integration",
    createdBy: "usr_demo_owner",
    createdDaysAgo: 4 / 24,
    replaces: "key_demo_acme_zapier_old",
    restrictions: ZAPIER_ACCESS,
    dailyRequests: 30,
    userAgent: "Zapier/1.0",
    ips: ["203.0.113.53"],
  },
  { id: "key_demo_globex_proto", orgId: "org_demo_globex", name: "Checkout prototype", createdBy: "usr_demo_globex", createdDaysAgo: 25, dailyRequests: 2, userAgent: "Mozilla/5.0 (Macintosh) Postman/11.2", ips: ["203.0.113.200"] },
  { id: "key_demo_solo_old", orgId: "org_demo_solo", name: "Website order sync (from Pro)", createdBy: "usr_demo_multi", createdDaysAgo: 120, dailyRequests: 0, userAgent: "invoicing-php/1.4.0", ips: ["192.0.2.5"] },
];

const ENDPOINTS: { endpoint: string; weight: number; path: () => string; ms: number; created?: boolean }[] = [
  { endpoint: "GET /v1/invoices", weight: 26, path: () => "/v1/invoices?limit=25", ms: 45 },
  { endpoint: "GET /v1/invoices/{id}", weight: 18, path: () => `/v1/invoices/in_${token(12)}`, ms: 28 },
  { endpoint: "POST /v1/invoices", weight: 10, path: () => "/v1/invoices", ms: 70, created: true },
  { endpoint: "POST /v1/invoices/{id}/finalize", weight: 6, path: () => `/v1/invoices/in_${token(12)}/finalize`, ms: 85 },
  { endpoint: "POST /v1/invoices/{id}/pay", weight: 4, path: () => `/v1/invoices/in_${token(12)}/pay`, ms: 60 },
  { endpoint: "GET /v1/customers", weight: 11, path: () => "/v1/customers?limit=50", ms: 40 },
  { endpoint: "POST /v1/customers", weight: 5, path: () => "/v1/customers", ms: 55, created: true },
  { endpoint: "GET /v1/products", weight: 8, path: () => "/v1/products", ms: 35 },
  { endpoint: "GET /v1/analytics", weight: 7, path: () => "/v1/analytics?from=2026-01-01", ms: 160 },
  { endpoint: "POST /v1/pdf/generate", weight: 5, path: () => "/v1/pdf/generate", ms: 320 },
];

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
const ERROR_CODES: Partial<Record<number, string>> = { 400: "validation_failed", 401: "api_key_revoked", 404: "not_found", 409: "invoice_not_draft", 429: "rate_limited", 500: "internal_error" };

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
  const reachable = ENDPOINTS.filter((e) => !restrictions || accessCovers(restrictions.access, restrictions.scopes, ...(e.endpoint.split(" ") as [string, string])));
  const beyondReach = ENDPOINTS.filter((e) => !reachable.includes(e));
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
      const revoked = at >= revokedAt;
      const stray = restrictions && restrictions.ipAllowlist.length > 0 && random() < 0.01;
      const beyond = Boolean(restrictions) && !stray && random() < 0.02 && beyondReach.length > 0;
      const endpoint = pick(beyond ? beyondReach : reachable);
      const refusal = revoked ? null : stray ? "ip_not_allowed" : beyond ? "api_key_scope_insufficient" : null;
      const status = refusal ? 403 : statusFor(endpoint, revoked);
      const duration = revoked || refusal || status === 429 ? 2 + Math.floor(random() * 4) : Math.round(endpoint.ms * (0.5 + random() * random() * 3));
      rows.push({
        orgId: key.orgId,
        apiKeyId: key.id,
        requestId: `req_${token(20)}`,
        method: endpoint.endpoint.split(" ")[0]!,
        path: endpoint.path(),
        endpoint: endpoint.endpoint,
        status,
        durationMs: duration,
        ip: stray ? STRAY_IP : key.ips[Math.floor(random() * key.ips.length)]!,
        userAgent: key.userAgent,
        errorCode: refusal ?? ERROR_CODES[status] ?? null,
        createdAt: new Date(at),
      });
    }
  }
  return rows;
}

async function seedTraffic(db: Db, now: Date): Promise<void> {
  await ensureRequestLogPartitions(db, new Date(now.getTime() - 31 * DAY), now);
  for (const key of KEYS) {
    const [existing] = await db.select({ id: requestLog.id }).from(requestLog).where(eq(requestLog.apiKeyId, key.id)).limit(1);
    if (existing || key.dailyRequests === 0) continue;
    const rows = trafficFor(key, now);
    for (let i = 0; i < rows.length; i += 1000) await db.insert(requestLog).values(rows.slice(i, i + 1000));
    const last = rows.reduce<(typeof rows)[number] | null>((latest, row) => (row.status !== 401 && (!latest || row.createdAt! > latest.createdAt!) ? row : latest), null);
    if (last) await db.update(apiKeys).set({ lastUsedAt: last.createdAt, lastUsedIp: last.ip, lastUsedEndpoint: last.endpoint }).where(eq(apiKeys.id, key.id));
  }
  await rebuildDailyRollups(db, ORGS.map((org) => org.id));
  // The month's quota counts what passed authentication and rate limiting (SPEC §2).
  for (const org of ORGS) {
    const quota = PLANS[org.plan].monthlyCalls;
    await spreadMonthlyUsage(db, org.id, quota, now);
    // The alerts the gateway would have raised on the way to this month's calls (SPEC §10).
    if (quota) {
      const thresholds = quotaThresholdsReached(quota, await callsThisMonth(db, org.id, now), DEFAULT_QUOTA_ALERT_THRESHOLDS);
      await raiseQuotaAlerts(db, { orgId: org.id, month: utcMonthStart(now), quota, thresholds, at: now });
    }
  }
}

/** When a demo key was created and when it stops: its lifetime, or the end of its roll's overlap. */
function lifeOf(key: DemoKey, now: Date): { createdAt: Date; expiresAt: Date | null } {
  const createdAt = new Date(now.getTime() - key.createdDaysAgo * DAY);
  createdAt.setUTCMilliseconds(0);
  if (key.rolled) return { createdAt, expiresAt: new Date(createdAt.getTime() + key.createdDaysAgo * DAY + (key.rolled.overlapHours - key.rolled.hoursAgo) * HOUR) };
  return { createdAt, expiresAt: key.lifetimeDays === undefined ? null : new Date(createdAt.getTime() + key.lifetimeDays * DAY) };
}

const iso = (date: Date | null) => date?.toISOString().replace(/\.\d{3}Z$/, "Z") ?? null;

/** The history entries of a demo key: created, rolled and revoked as it was (SPEC §8). */
function keyHistory(key: DemoKey, now: Date, hints: Map<string, string>): (typeof activityLog.$inferInsert)[] {
  const target = { orgId: key.orgId, actorUserId: key.createdBy, targetType: "api_key" as const, targetId: key.id, targetName: key.name, ip: DEMO_IP, userAgent: DEMO_BROWSER };
  const { createdAt, expiresAt } = lifeOf(key, now);
  const created = {
    name: key.name,
    hint: hints.get(key.id) ?? null,
    expiresAt: iso(key.rolled ? null : expiresAt),
    ...(key.replaces ? { replaces: hints.get(key.replaces) ?? null } : {}),
    ...restrictionChanges(null, key.restrictions ?? { access: "full", scopes: {}, ipAllowlist: [] }).after,
  };
  const entries: (typeof activityLog.$inferInsert)[] = [{ ...target, action: "api_key.created", after: created, createdAt }];
  if (key.rolled) {
    const rolledAt = new Date(now.getTime() - key.rolled.hoursAgo * HOUR);
    entries.push({ ...target, action: "api_key.rolled", before: { expiresAt: null }, after: { expiresAt: iso(expiresAt), replacedBy: hints.get(key.rolled.replacementId) ?? null }, createdAt: rolledAt });
  }
  if (key.revokedDaysAgo !== undefined) {
    const why = { ...(key.revokeReason ? { reason: key.revokeReason } : {}), ...(key.revokeNote ? { note: key.revokeNote } : {}) };
    entries.push({ ...target, action: "api_key.revoked", before: { status: "active" }, after: { status: "revoked", ...why }, createdAt: new Date(now.getTime() - key.revokedDaysAgo * DAY) });
  }
  return entries;
}

/**
 * SPEC §12's states in Acme: an invitation waiting to be accepted and one that expired unused.
 * Their links are random and shown to nobody: invite someone to get a link that works.
 */
const INVITATIONS = [
  { id: "ivt_demo_acme_pending", email: "carol@acme.test", role: "admin", invitedBy: "usr_demo_owner", sentDaysAgo: 2 },
  { id: "ivt_demo_acme_expired", email: "dev@contractor.test", role: "member", invitedBy: "usr_demo_admin", sentDaysAgo: 12 },
] as const;

async function seedInvitations(db: Db, now: Date): Promise<void> {
  const rows = INVITATIONS.map(({ sentDaysAgo, ...invitation }) => {
    const createdAt = new Date(now.getTime() - sentDaysAgo * DAY);
    return { ...invitation, orgId: "org_demo_acme", tokenHash: mintInvitationToken().hash, createdAt, expiresAt: new Date(createdAt.getTime() + INVITATION_LIFETIME_DAYS * DAY) };
  });
  const added = await db.insert(invitations).values(rows).onConflictDoNothing().returning({ id: invitations.id });
  const target = (row: (typeof rows)[number]) => ({ orgId: row.orgId, actorUserId: row.invitedBy, targetType: "invitation" as const, targetId: row.id, targetName: row.email, ip: DEMO_IP, userAgent: DEMO_BROWSER });
  const history = rows
    .filter((row) => added.some((a) => a.id === row.id))
    .map((row) => ({ ...target(row), action: "invitation.created", after: { email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString() }, createdAt: row.createdAt }));
  if (history.length > 0) await db.insert(activityLog).values(history);
}

/** When the demo people last signed in, for the Members page (SPEC §12); the guest never has. */
async function seedLastSignIns(db: Db, now: Date): Promise<void> {
  for (const [userId, hoursAgo] of [["usr_demo_owner", 3], ["usr_demo_admin", 26], ["usr_demo_member", 120]] as const) {
    await db.update(users).set({ lastSignInAt: new Date(now.getTime() - hoursAgo * HOUR) }).where(and(eq(users.id, userId), isNull(users.lastSignInAt)));
  }
}

/** Demo organizations, users, keys and 30 days of traffic. Safe to run again: it adds only what is missing. */
export async function seedDatabase(db: Db, now = new Date()): Promise<void> {
  state = 20261123;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.insert(users).values(DEMO_USERS.map(({ id, email, name }) => ({ id, email, name, passwordHash }))).onConflictDoNothing();
  await db.insert(organizations).values(ORGS).onConflictDoNothing();
  await db.insert(memberships).values(MEMBERSHIPS).onConflictDoNothing();
  const existingKeys = await db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, KEYS.map((key) => key.id)));
  const missing = KEYS.filter((key) => !existingKeys.some((row) => row.id === key.id));
  if (missing.length > 0) {
    // Demo keys get real random values that nobody is shown: create your own to call the API.
    const minted = new Map(missing.map((key) => [key.id, mintApiKey()]));
    await db.insert(apiKeys).values(
      missing.map((key) => {
        const { hash, hint } = minted.get(key.id)!;
        return {
          id: key.id,
          orgId: key.orgId,
          name: key.name,
          keyHash: hash,
          hint,
          createdBy: key.createdBy,
          ...lifeOf(key, now),
          replacesKeyId: key.replaces ?? null,
          revokedAt: key.revokedDaysAgo === undefined ? null : new Date(now.getTime() - key.revokedDaysAgo * DAY),
          revokedBy: key.revokedDaysAgo === undefined ? null : key.createdBy,
          revokeReason: key.revokeReason ?? null,
          revokeNote: key.revokeNote ?? null,
          ...key.restrictions,
        };
      }),
    );
    const hints = new Map([...minted].map(([id, { hint }]) => [id, hint]));
    await db.insert(activityLog).values(missing.flatMap((key) => keyHistory(key, now, hints)));
  }
  await seedTraffic(db, now);
  await seedWebhooks(db, now, { ip: DEMO_IP, userAgent: DEMO_BROWSER });
  await seedInvitations(db, now);
  await seedLastSignIns(db, now);
  await watchKeyExpiries(db, now);
}

/** True when the database has no organization yet: the embedded database's first start. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(ne(organizations.id, "")).limit(1);
  return !row;
}
