import "server-only";
import { sql } from "drizzle-orm";
import { getDb, queryPrepared } from "@/db";
import { countOnFreeShard, countUnderCapSql, shardCapSql, shardCountSql } from "@/db/monthly-usage";
import type { Plan } from "@/db/enums";
import { utcMonthStart } from "@/db/time";

/** What the gateway's admission statement needs to know of a plan (lib/plans.ts is the source). */
export interface PlanRule {
  plan: Plan;
  apiAccess: boolean;
  /** Whether the organization's own per-key limit applies instead of `rateLimit`. */
  customRateLimit: boolean;
  rateLimit: number;
  /** Calls a month; null: unlimited. */
  quota: number | null;
}

/** What one admission found and counted. */
export interface Admission {
  keyId: string;
  orgId: string;
  revoked: boolean;
  plan: Plan;
  rateLimit: number;
  /** This request's place in its key's minute, or null when it was not counted (revoked, no access). */
  rateCount: number | null;
  quota: number | null;
  /** The month's calls, this one included when it was counted. */
  quotaUsed: number;
  quotaCounted: boolean;
}

interface AdmissionRow {
  key_id: string;
  org_id: string;
  revoked: boolean;
  plan: Plan;
  rate_limit: number;
  rate_count: number | null;
  quota: number | null;
  quota_used: number;
  quota_counted: boolean;
}

function sqlLiteral(value: string | number | boolean | null): string {
  if (value === null) return "null::int";
  if (typeof value === "string") {
    if (!/^[a-z_]+$/.test(value)) throw new Error(`Unexpected plan name ${value}`);
    return `'${value}'`;
  }
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw new Error(`Unexpected plan figure ${value}`);
  return String(value);
}

/**
 * The gateway's one statement before the handler, in SPEC §4's order: the key by its hash, its
 * organization's plan, then (unless the key is revoked or the plan has no API access) this
 * request counted in the key's minute, then (unless that minute is full) counted in the month on
 * a shard drawn at random, when the plan has a quota and the month still has room.
 *
 * $1 key hash, $2 minute start, $3 month, $4 a random number in [0, 1) that draws the shard.
 */
export function admissionStatement(rules: PlanRule[]): string {
  const values = rules
    .map((rule) => `(${[rule.plan, rule.apiAccess, rule.customRateLimit, rule.rateLimit, rule.quota].map(sqlLiteral).join(", ")})`)
    .join(", ");
  return `
    with rules (plan, api_access, custom_rate_limit, rate_limit, quota) as (values ${values}),
    found as (
      select k.id as key_id, k.org_id, k.revoked_at is not null as revoked, o.plan, r.api_access, r.quota,
             case when r.custom_rate_limit then coalesce(o.rate_limit_per_minute, r.rate_limit) else r.rate_limit end as rate_limit,
             floor($4::float8 * ${shardCountSql("r.quota")})::int as shard,
             -- Without a quota the only write is a one-minute counter: its commit need not wait
             -- for the disk. A crash of PostgreSQL could forget the last few counts of a minute.
             case when r.quota is null then set_config('synchronous_commit', 'off', true) end as commit_mode
      from api_keys k
      join organizations o on o.id = k.org_id
      join rules r on r.plan = o.plan::text
      where k.key_hash = $1
    ), rate as (
      insert into rate_limit_windows (org_id, api_key_id, window_start, count)
      select org_id, key_id, $2::timestamptz, 1 from found where not revoked and api_access
      on conflict (org_id, api_key_id, window_start) do update set count = rate_limit_windows.count + 1
      returning count
    ), month as (
      select coalesce(sum(u.count), 0)::int as used, coalesce(sum(u.count) filter (where u.shard = f.shard), 0)::int as in_shard
      from found f join monthly_usage u on u.org_id = f.org_id and u.month = $3::date
      where f.quota is not null
    ), counted as (
      ${countUnderCapSql(`
        select f.org_id, $3::date as month, f.shard, ${shardCapSql("f.quota", "f.shard")} as cap
        from found f, rate r, month m
        where f.quota > 0 and r.count <= f.rate_limit and m.used < f.quota`)}
    )
    select f.key_id, f.org_id, f.revoked, f.plan, f.rate_limit, r.count as rate_count, f.quota,
           case when c.count is null then m.used else m.used - m.in_shard + c.count end as quota_used,
           c.count is not null as quota_counted
    from found f
    left join rate r on true
    left join month m on true
    left join counted c on true`;
}

/**
 * The gateway's admission, with the plan rules built into its statement. No cache: a revocation
 * committed by any process is seen by the very next request in every process.
 */
export function admissionFor(rules: PlanRule[]): (keyHash: string, at: Date) => Promise<Admission | null> {
  const statement = admissionStatement(rules);
  return async (keyHash, at) => {
    const windowStart = new Date(rateWindowStart(at.getTime()));
    const month = utcMonthStart(at);
    const [row] = await queryPrepared<AdmissionRow>(statement, [keyHash, windowStart.toISOString(), month, Math.random()]);
    if (!row) return null;
    const admission: Admission = {
      keyId: row.key_id,
      orgId: row.org_id,
      revoked: row.revoked,
      plan: row.plan,
      rateLimit: row.rate_limit,
      rateCount: row.rate_count,
      quota: row.quota,
      quotaUsed: row.quota_used ?? 0,
      quotaCounted: row.quota_counted,
    };
    // The drawn shard was full while the month still had room: count on another one.
    const drawnShardFull = admission.quota !== null && admission.quota > 0 && !admission.quotaCounted && admission.quotaUsed < admission.quota;
    if (drawnShardFull && admission.rateCount !== null && admission.rateCount <= admission.rateLimit) {
      const retried = await countOnFreeShard(admission.orgId, month, admission.quota!);
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

/** The rate limit's fixed window. */
export const RATE_WINDOW_MS = 60_000;

/** The start (epoch ms) of the rate-limit window that `at` (epoch ms) falls in. */
export function rateWindowStart(at: number): number {
  return Math.floor(at / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}

/** Drops windows that ended more than a few minutes ago; they decide nothing any more. */
export async function pruneRateWindows(before: Date): Promise<void> {
  await getDb().execute(sql`delete from rate_limit_windows where window_start < ${before.toISOString()}`);
}

export interface RequestLogEntry {
  orgId: string;
  apiKeyId: string;
  requestId: string;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
  at: Date;
  /** Whether the call counts as a use of the key (not refused for being revoked). */
  touchesKey: boolean;
}

// The rows of a batch as parallel arrays, unnested into one insert: one statement and one commit
// for every request that finished while the previous batch was being written.
/** $1 org, $2 key, $3 request id, $4 method, $5 path, $6 endpoint, $7 status, $8 ms, $9 IP, $10 user agent, $11 time, $12 touches the key: one array each. */
export const WRITE_REQUEST_LOG = `
  with batch as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int2[], $8::int4[], $9::text[], $10::text[], $11::timestamptz[], $12::bool[])
      as r(org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at, touches_key)
  ), logged as (
    insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at)
    select org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at from batch
  ), rolled as (
    -- In key order, so batches of several processes lock shared rows in one order.
    insert into request_daily_rollup (org_id, api_key_id, day, endpoint, status, count)
    select org_id, api_key_id, (created_at at time zone 'UTC')::date, endpoint, status, count(*) from batch
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (org_id, api_key_id, day, endpoint, status) do update set count = request_daily_rollup.count + excluded.count
  ), used as (
    select org_id, api_key_id, max(created_at) as at from batch where touches_key group by 1, 2
  ), touched as (
    -- The key's last use, at most once a minute.
    select k.org_id, k.id, u.at from api_keys k join used u on u.org_id = k.org_id and u.api_key_id = k.id
    where k.last_used_at is null or k.last_used_at < u.at - interval '1 minute'
    order by k.org_id, k.id for update of k
  )
  update api_keys k set last_used_at = t.at from touched t where k.org_id = t.org_id and k.id = t.id`;

/** How many rows one batch carries at most. */
const MAX_BATCH_ROWS = 500;
/** Batches being written at once by this process; the rest wait and grow. */
const MAX_BATCHES_IN_FLIGHT = 2;
// PostgreSQL's deadlock and serialization failures: the batch rolled back whole and may run again.
const RETRYABLE = new Set(["40P01", "40001"]);

interface Waiting {
  entry: RequestLogEntry;
  done: (error?: unknown) => void;
}

/**
 * Group commit for the request log: each request's row, daily rollup and key last-used time are
 * written with those of the other requests that finished meanwhile, in one statement. A request
 * waits for its batch's commit, so a response that reached its client has its row; a failed batch
 * fails each of its requests.
 */
class RequestLogWriter {
  private queue: Waiting[] = [];
  private inFlight = 0;

  write(entry: RequestLogEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_BATCHES_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH_ROWS);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: Waiting[]): Promise<void> {
    const rows = batch.map(({ entry }) => entry);
    const column = <T>(pick: (entry: RequestLogEntry) => T) => rows.map(pick);
    const params = [
      column((e) => e.orgId), column((e) => e.apiKeyId), column((e) => e.requestId), column((e) => e.method), column((e) => e.path),
      column((e) => e.endpoint), column((e) => e.status), column((e) => e.durationMs), column((e) => e.ip), column((e) => e.userAgent),
      column((e) => e.at.toISOString()), column((e) => e.touchesKey),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        await queryPrepared(WRITE_REQUEST_LOG, params);
        for (const waiting of batch) waiting.done();
        return;
      } catch (error) {
        if (attempt < 3 && RETRYABLE.has((error as { code?: string }).code ?? "")) continue;
        const failure = new Error(`Writing a batch of ${rows.length} request-log rows failed`, { cause: error });
        for (const waiting of batch) waiting.done(failure);
        return;
      }
    }
  }
}

const writer = new RequestLogWriter();

/** The request's audit row, its daily rollup and the key's last use; resolves once they are committed. */
export function writeRequestLog(entry: RequestLogEntry): Promise<void> {
  return writer.write(entry);
}
