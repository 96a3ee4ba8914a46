import "server-only";
import { queryPrepared } from "@/db";
import { GroupCommit } from "@/core/group-commit";
import { countOnFreeShard } from "@/db/queries/monthly-usage";
import { permissionRank, type ApiResource, type KeyAccess, type KeyScopes, type Mode, type Permission, type Plan } from "@/core/enums";
import { utcMonthStart } from "@/core/time";
import type { BudgetPeriod } from "@/core/key-budget";
import { rateWindowStart, withinRateLimit } from "@/core/rate-window";
import { admissionStatement, expiredSql, ipAllowedSql, type PlanRule } from "@/db/queries/admission-statement";

/** What one admission found and counted. */
export interface Admission {
  keyId: string;
  orgId: string;
  /** The books the request reads and writes (docs/features/test-mode.md). */
  mode: Mode;
  revoked: boolean;
  /** When the key stops working, or null; past it (at the request's time) the key counts nothing. */
  expiresAt: Date | null;
  expired: boolean;
  access: KeyAccess;
  /** The client's address is on the key's allowlist, or the key has none (docs/features/restricted-keys.md#ip-allowlist). */
  ipAllowed: boolean;
  /** The key's access covers what the request needs (docs/features/restricted-keys.md). */
  scopeAllowed: boolean;
  plan: Plan;
  rateLimit: number;
  /** This request's place in its key's minute, or null when it was not counted (revoked, no access). */
  rateCount: number | null;
  /** The month's calls the plan allows; null: unlimited, or a test key's request, which the month does not count. */
  quota: number | null;
  /** The month's calls, this one included when it was counted. */
  quotaUsed: number;
  quotaCounted: boolean;
  /** The organization's quota alert thresholds, percent (docs/features/alerts.md). */
  quotaAlertThresholds: number[];
  /** The key's budget, or null when it has none. */
  budget: AdmittedBudget | null;
}

/** Where a request left its key's budget. */
export interface AdmittedBudget {
  limit: number;
  period: BudgetPeriod;
  /** The first instant of the request's period (UTC), epoch milliseconds. */
  periodStart: number;
  /** When the period ends and the budget starts again, epoch seconds. */
  resetsAt: number;
  /** The period's admitted requests, this one included when it was counted. */
  used: number;
  /** This request took one of the period's places. */
  counted: boolean;
  /** The budget refuses this request (decided only for requests within their rate limit). */
  exceeded: boolean;
}

interface AdmissionRow {
  key_id: string;
  org_id: string;
  mode: Mode;
  revoked: boolean;
  expires_at: Date | string | null;
  expired: boolean;
  access: KeyAccess;
  ip_allowed: boolean;
  scope_allowed: boolean;
  plan: Plan;
  rate_limit: number;
  rate_count: number | null;
  quota: number | null;
  quota_used: number;
  quota_counted: boolean;
  quota_alert_thresholds: number[];
  budget_limit: number | null;
  budget_period: BudgetPeriod | null;
  budget_start_ms: number | null;
  budget_reset_s: number | null;
  budget_used: number;
  budget_counted: boolean;
  budget_exceeded: boolean;
}

/** One request to admit: its key, time, what it needs and where it comes from. */
export interface AdmissionAsk {
  keyHash: string;
  at: Date;
  /** The resource of the request's path and the permission its method needs there (lib/keys/access.ts); null for a path of none. */
  need: { resource: ApiResource; permission: Permission } | null;
  /** GET or HEAD (lib/keys/access.ts isSafeMethod): all a read-only key may send. */
  safe: boolean;
  /** Canonical (lib/keys/ip-allowlist.ts), or null when unknown. */
  ip: string | null;
}

/**
 * The gateway's admission, with the plan rules built into its statement: the requests that arrive
 * while a batch is being admitted go together in the next one (GroupCommit). No cache: a
 * revocation committed by any process is seen by the very next request in every process.
 */
export function admissionFor(rules: PlanRule[]): (ask: AdmissionAsk) => Promise<Admission | null> {
  const statement = admissionStatement(rules);
  const admitBatch = async (asks: AdmissionAsk[]): Promise<(AdmissionRow | null)[]> => {
    const rows = await queryPrepared<AdmissionRow & { ord: number }>(
      statement,
      [
        asks.map((ask) => ask.keyHash),
        asks.map((ask) => new Date(rateWindowStart(ask.at.getTime())).toISOString()),
        asks.map((ask) => utcMonthStart(ask.at)),
        asks.map(() => Math.random()),
        asks.map((ask) => ask.at.toISOString()),
        asks.map((ask) => ask.need?.resource ?? null),
        asks.map((ask) => (ask.need ? permissionRank(ask.need.resource, ask.need.permission) : 0)),
        asks.map((ask) => ask.safe),
        asks.map((ask) => ask.ip),
      ],
      "admission",
    );
    const byPlace = new Map(rows.map((row) => [row.ord, row]));
    return asks.map((_, i) => byPlace.get(i + 1) ?? null);
  };
  const batches = new GroupCommit("admission", admitBatch, (size) => `Admitting a batch of ${size} requests failed`);
  return async (ask) => {
    const { at } = ask;
    const row = await batches.submit(ask);
    if (!row) return null;
    const admission: Admission = {
      ...standingOf(row),
      scopeAllowed: row.scope_allowed,
      rateLimit: row.rate_limit,
      rateCount: row.rate_count,
      quota: row.quota,
      quotaUsed: row.quota_used,
      quotaCounted: row.quota_counted,
      quotaAlertThresholds: row.quota_alert_thresholds,
      budget:
        row.budget_limit === null
          ? null
          : {
              limit: row.budget_limit,
              period: row.budget_period!,
              periodStart: row.budget_start_ms!,
              resetsAt: row.budget_reset_s!,
              used: row.budget_used,
              counted: row.budget_counted,
              exceeded: row.budget_exceeded,
            },
    };
    // The drawn shard was full while the month still had room: count on another one.
    const drawnShardFull = admission.quota !== null && admission.quota > 0 && !admission.quotaCounted && admission.quotaUsed < admission.quota;
    if (drawnShardFull && admission.rateCount !== null && withinRateLimit(admission.rateCount, admission.rateLimit) && !admission.budget?.exceeded) {
      const retried = await countOnFreeShard(admission.orgId, utcMonthStart(at), admission.quota!);
      admission.quotaCounted = retried.counted;
      admission.quotaUsed = retried.used;
    }
    return admission;
  };
}

export type KeyOwner = Pick<Admission, "keyId" | "orgId" | "revoked">;

/** The key's organization without counting anything: the audit row of a request whose admission failed. */
export async function findKeyOwner(keyHash: string): Promise<KeyOwner | null> {
  const [row] = await queryPrepared<{ key_id: string; org_id: string; revoked: boolean }>(
    "select id as key_id, org_id, revoked_at is not null as revoked from api_keys where key_hash = $1",
    [keyHash],
  );
  return row ? { keyId: row.key_id, orgId: row.org_id, revoked: row.revoked } : null;
}

type StandingColumns = "key_id" | "org_id" | "mode" | "revoked" | "expires_at" | "expired" | "access" | "ip_allowed" | "plan";

/** What a key may do, as the admission statement finds it, without counting anything. */
export type KeyStanding = Pick<Admission, "keyId" | "orgId" | "mode" | "revoked" | "expiresAt" | "expired" | "access" | "ipAllowed" | "plan"> & {
  scopes: KeyScopes;
};

/** The key's standing from its columns, in an admission's row or a lookup's. */
function standingOf(row: Pick<AdmissionRow, StandingColumns>): Omit<KeyStanding, "scopes"> {
  return {
    keyId: row.key_id,
    orgId: row.org_id,
    mode: row.mode,
    revoked: row.revoked,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    expired: row.expired,
    access: row.access,
    ipAllowed: row.ip_allowed,
    plan: row.plan,
  };
}

/**
 * The key's standing at `at` from the address `ip` (canonical, null when unknown), read
 * only: the MCP endpoint's own messages (docs/features/mcp.md) are no API calls, so they count
 * toward no limit. The expiry and the allowlist are the admission statement's own expressions.
 */
export async function findKeyStanding(keyHash: string, at: Date, ip: string | null): Promise<KeyStanding | null> {
  const [row] = await queryPrepared<Pick<AdmissionRow, StandingColumns> & { scopes: KeyScopes }>(
    `select k.id as key_id, k.org_id, k.mode, k.revoked_at is not null as revoked, k.expires_at, ${expiredSql("k", "$2::timestamptz")} as expired,
            k.access, k.scopes, ${ipAllowedSql("k", "$3::text")} as ip_allowed, o.plan
     from api_keys k join organizations o on o.id = k.org_id
     where k.key_hash = $1`,
    [keyHash, at.toISOString(), ip],
  );
  return row ? { ...standingOf(row), scopes: row.scopes } : null;
}
