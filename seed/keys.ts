import { inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import type { KeyRestrictions, Mode, RevokeReason } from "@/core/enums";
import { activityLog, apiKeys, budgetColumns } from "@/db/schema";
import { restrictionChanges } from "@/lib/keys/access";
import { mintApiKey } from "@/lib/keys/format";
import { budgetPeriodStart, describeBudget, type KeyBudget } from "@/core/key-budget";
import { API_ERRORS } from "@/lib/api/errors";

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

export interface DemoKey {
  id: string;
  orgId: string;
  name: string;
  /** Live unless said (docs/features/test-mode.md). */
  mode?: Mode;
  createdBy: string;
  createdDaysAgo: number;
  revokedDaysAgo?: number;
  revokeReason?: RevokeReason;
  revokeNote?: string;
  /** Days from creation to expiry; none: the key never expires. */
  lifetimeDays?: number;
  /** Rolled this many hours ago, the old value working for `overlapHours` after it (docs/features/api-keys.md#roll). */
  rolled?: { hoursAgo: number; overlapHours: number; replacementId: string };
  /** The key this one replaced when it was rolled. */
  replaces?: string;
  /** What the key may do and from where (docs/features/restricted-keys.md); full access from anywhere when left out. */
  restrictions?: KeyRestrictions;
  /** Its budget (docs/features/key-budgets.md), set when it was created. */
  budget?: KeyBudget;
  /** Typical requests on a weekday; the seed's traffic follows a daily rhythm around it. */
  dailyRequests: number;
  userAgent: string;
  ips: string[];
}

// The demo people sign in from one office browser; their history entries say so.
export const DEMO_IP = "198.51.100.7";
export const DEMO_BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

const ZAPIER_ACCESS: KeyRestrictions = { access: "restricted", scopes: { invoices: "write", customers: "write" }, ipAllowlist: ["203.0.113.52/31"] };
/** Where a demo key's refused calls come from: a developer's laptop, not on any allowlist. */
export const STRAY_IP = "198.51.100.201";

export const KEYS: DemoKey[] = [
  {
    id: "key_demo_acme_prod",
    orgId: "org_demo_acme",
    name: "Production billing server",
    createdBy: "usr_demo_owner",
    createdDaysAgo: 90,
    dailyRequests: 170,
    userAgent: "invoicing-node/2.3.1 node/20.20.2",
    ips: ["203.0.113.10", "203.0.113.11"],
  },
  // Staging may not run away with the month's quota.
  {
    id: "key_demo_acme_staging",
    orgId: "org_demo_acme",
    name: "Staging",
    createdBy: "usr_demo_admin",
    createdDaysAgo: 60,
    budget: { limit: 250, period: "week" },
    dailyRequests: 35,
    userAgent: "curl/8.5.0",
    ips: ["198.51.100.24"],
  },
  {
    id: "key_demo_acme_ios",
    orgId: "org_demo_acme",
    name: "iOS app backend",
    createdBy: "usr_demo_admin",
    createdDaysAgo: 21,
    dailyRequests: 45,
    userAgent: "okhttp/4.12.0",
    ips: ["192.0.2.77", "192.0.2.78"],
  },
  // Test mode (docs/features/test-mode.md): the CI suite runs against Acme's test books.
  {
    id: "key_demo_acme_test",
    orgId: "org_demo_acme",
    name: "CI test suite",
    mode: "test",
    createdBy: "usr_demo_admin",
    createdDaysAgo: 40,
    dailyRequests: 30,
    userAgent: "invoicing-node/2.3.1 node/20.20.2 (CI)",
    ips: ["192.0.2.140"],
  },
  {
    id: "key_demo_acme_legacy",
    orgId: "org_demo_acme",
    name: "Legacy CSV importer",
    createdBy: "usr_demo_owner",
    createdDaysAgo: 200,
    revokedDaysAgo: 9,
    revokeReason: "replaced",
    revokeNote: "Imports now run through the production billing server.",
    dailyRequests: 25,
    userAgent: "python-requests/2.32.3",
    ips: ["198.51.100.90"],
  },
  // The lifecycle's states: a partner key that expires in 3 days and was never set up (so also unused
  // for 30 days), a load-test key that expired, and a pair rolled 4 hours ago whose old value
  // is still in use during its 24-hour overlap.
  // Restricted keys: the partner's key is read only, and the Zapier pair may write invoices and
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
  {
    id: "key_demo_acme_loadtest",
    orgId: "org_demo_acme",
    name: "Black Friday load test",
    createdBy: "usr_demo_admin",
    createdDaysAgo: 40,
    lifetimeDays: 30,
    dailyRequests: 60,
    userAgent: "k6/0.52.0 (https://k6.io/)",
    ips: ["198.51.100.140"],
  },
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
  {
    id: "key_demo_globex_proto",
    orgId: "org_demo_globex",
    name: "Checkout prototype",
    createdBy: "usr_demo_globex",
    createdDaysAgo: 25,
    dailyRequests: 2,
    userAgent: "Mozilla/5.0 (Macintosh) Postman/11.2",
    ips: ["203.0.113.200"],
  },
  {
    id: "key_demo_solo_old",
    orgId: "org_demo_solo",
    name: "Website order sync (from Pro)",
    createdBy: "usr_demo_multi",
    createdDaysAgo: 120,
    dailyRequests: 0,
    userAgent: "invoicing-php/1.4.0",
    ips: ["192.0.2.5"],
  },
];

/** When a demo key was created and when it stops: its lifetime, or the end of its roll's overlap. */
export function lifeOf(key: DemoKey, now: Date): { createdAt: Date; expiresAt: Date | null } {
  const createdAt = new Date(now.getTime() - key.createdDaysAgo * DAY);
  createdAt.setUTCMilliseconds(0);
  if (key.rolled)
    return { createdAt, expiresAt: new Date(createdAt.getTime() + key.createdDaysAgo * DAY + (key.rolled.overlapHours - key.rolled.hoursAgo) * HOUR) };
  return { createdAt, expiresAt: key.lifetimeDays === undefined ? null : new Date(createdAt.getTime() + key.lifetimeDays * DAY) };
}

const iso = (date: Date | null) => date?.toISOString().replace(/\.\d{3}Z$/, "Z") ?? null;

/** The history entries of a demo key: created, rolled and revoked as it was (docs/features/activity-history.md). */
function keyHistory(key: DemoKey, now: Date, hints: Map<string, string>): (typeof activityLog.$inferInsert)[] {
  const target = {
    orgId: key.orgId,
    actorUserId: key.createdBy,
    targetType: "api_key" as const,
    targetId: key.id,
    targetName: key.name,
    ip: DEMO_IP,
    userAgent: DEMO_BROWSER,
  };
  const { createdAt, expiresAt } = lifeOf(key, now);
  const created = {
    name: key.name,
    hint: hints.get(key.id) ?? null,
    expiresAt: iso(key.rolled ? null : expiresAt),
    ...(key.replaces ? { replaces: hints.get(key.replaces) ?? null } : {}),
    ...restrictionChanges(null, key.restrictions ?? { access: "full", scopes: {}, ipAllowlist: [] }).after,
    ...(key.budget ? { budget: describeBudget(key.budget) } : {}),
  };
  const entries: (typeof activityLog.$inferInsert)[] = [{ ...target, action: "api_key.created", after: created, createdAt }];
  if (key.rolled) {
    const rolledAt = new Date(now.getTime() - key.rolled.hoursAgo * HOUR);
    entries.push({
      ...target,
      action: "api_key.rolled",
      before: { expiresAt: null },
      after: { expiresAt: iso(expiresAt), replacedBy: hints.get(key.rolled.replacementId) ?? null },
      createdAt: rolledAt,
    });
  }
  if (key.revokedDaysAgo !== undefined) {
    const why = { ...(key.revokeReason ? { reason: key.revokeReason } : {}), ...(key.revokeNote ? { note: key.revokeNote } : {}) };
    entries.push({
      ...target,
      action: "api_key.revoked",
      before: { status: "active" },
      after: { status: "revoked", ...why },
      createdAt: new Date(now.getTime() - key.revokedDaysAgo * DAY),
    });
  }
  return entries;
}

/** The demo keys missing from the database, with their history as it happened. */
export async function seedKeys(db: Db, now: Date): Promise<void> {
  const existingKeys = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      inArray(
        apiKeys.id,
        KEYS.map((key) => key.id),
      ),
    );
  const missing = KEYS.filter((key) => !existingKeys.some((row) => row.id === key.id));
  if (missing.length > 0) {
    // Demo keys get real random values that nobody is shown: create your own to call the API.
    const minted = new Map(missing.map((key) => [key.id, mintApiKey(key.mode ?? "live")]));
    await db.insert(apiKeys).values(
      missing.map((key) => {
        const { hash, hint } = minted.get(key.id)!;
        return {
          id: key.id,
          orgId: key.orgId,
          name: key.name,
          mode: key.mode ?? "live",
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
          ...budgetColumns(key.budget ?? null),
        };
      }),
    );
    const hints = new Map([...minted].map(([id, { hint }]) => [id, hint]));
    await db.insert(activityLog).values(missing.flatMap((key) => keyHistory(key, now, hints)));
  }
}

/** The gateway's own refusals: requests that never reached a budget (lib/api/errors.ts lists them first, in order). */
const GATEWAY_REFUSALS = Object.keys(API_ERRORS).slice(0, Object.keys(API_ERRORS).indexOf("monthly_quota_exceeded") + 1);

/**
 * The current period's count of each demo key with a budget, from its seeded traffic: the
 * requests the gateway admitted since the period began, as the admission statement would have
 * counted them. Run after the traffic; a count already there is left as it is.
 */
export async function seedBudgetUsage(db: Db, now: Date): Promise<void> {
  for (const key of KEYS.filter((demo) => demo.budget)) {
    const { limit, period } = key.budget!;
    await db.execute(sql`
      insert into key_budget_usage (org_id, api_key_id, period_start, used, prior, budget_limit)
      select ${key.orgId}, ${key.id}, ${budgetPeriodStart(now, period).toISOString()}::timestamptz, least(count(*), ${limit})::int, 0, ${limit}
      from request_log
      where org_id = ${key.orgId} and api_key_id = ${key.id} and created_at >= ${budgetPeriodStart(now, period).toISOString()}::timestamptz and created_at <= ${now.toISOString()}::timestamptz
        and (error_code is null or error_code <> all(${`{${GATEWAY_REFUSALS.join(",")}}`}::text[]))
      on conflict do nothing`);
  }
}
