import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/partitions";
import type { Plan } from "@/db/enums";
import { utcDay } from "@/db/time";

export interface KeyRecord {
  keyId: string;
  orgId: string;
  revoked: boolean;
  plan: Plan;
  rateLimitPerMinute: number | null;
}

/**
 * One indexed lookup per request, no cache: a revocation committed by any process is seen by
 * the very next request in every process.
 */
export async function findKeyByHash(keyHash: string): Promise<KeyRecord | null> {
  const rows = rowsOf<{ key_id: string; org_id: string; revoked: boolean; plan: Plan; rate_limit_per_minute: number | null }>(
    await getDb().execute(sql`
      select k.id as key_id, k.org_id, k.revoked_at is not null as revoked, o.plan, o.rate_limit_per_minute
      from api_keys k join organizations o on o.id = k.org_id
      where k.key_hash = ${keyHash}`),
  );
  const row = rows[0];
  return row ? { keyId: row.key_id, orgId: row.org_id, revoked: row.revoked, plan: row.plan, rateLimitPerMinute: row.rate_limit_per_minute } : null;
}

/**
 * Fixed one-minute window: counts this request in the key's current window and returns the
 * count including it. The row lock of the upsert makes the count exact across processes.
 */
export async function countInRateWindow(key: Pick<KeyRecord, "orgId" | "keyId">, windowStart: Date): Promise<number> {
  const rows = rowsOf<{ count: number }>(
    await getDb().execute(sql`
      insert into rate_limit_windows (org_id, api_key_id, window_start, count) values (${key.orgId}, ${key.keyId}, ${windowStart.toISOString()}, 1)
      on conflict (org_id, api_key_id, window_start) do update set count = rate_limit_windows.count + 1
      returning count`),
  );
  return Number(rows[0]!.count);
}

/** Drops windows that ended more than a few minutes ago; they decide nothing any more. */
export async function pruneRateWindows(before: Date): Promise<void> {
  await getDb().execute(sql`delete from rate_limit_windows where window_start < ${before.toISOString()}`);
}

/**
 * Counts a call against the organization's month when it is under `limit` (null: unlimited).
 * Returns the month's count including this call, or null when the quota was already used up.
 */
export async function countMonthlyCall(orgId: string, month: string, limit: number | null): Promise<number | null> {
  const rows = rowsOf<{ count: number }>(
    await getDb().execute(
      limit === null
        ? sql`insert into monthly_usage (org_id, month, count) values (${orgId}, ${month}, 1)
              on conflict (org_id, month) do update set count = monthly_usage.count + 1 returning count`
        : sql`insert into monthly_usage (org_id, month, count) values (${orgId}, ${month}, 1)
              on conflict (org_id, month) do update set count = monthly_usage.count + 1
              where monthly_usage.count < ${limit} returning count`,
    ),
  );
  return rows[0] ? Number(rows[0].count) : null;
}

export async function monthlyCount(orgId: string, month: string): Promise<number> {
  const rows = rowsOf<{ count: number }>(await getDb().execute(sql`select count from monthly_usage where org_id = ${orgId} and month = ${month}`));
  return rows[0] ? Number(rows[0].count) : 0;
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

/**
 * The request's audit row, its daily rollup and the key's last-used time (at most once a
 * minute), in one statement: they are written together or not at all.
 */
export async function writeRequestLog(entry: RequestLogEntry): Promise<void> {
  const at = entry.at.toISOString();
  await getDb().execute(sql`
    with logged as (
      insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at)
      values (${entry.orgId}, ${entry.apiKeyId}, ${entry.requestId}, ${entry.method}, ${entry.path}, ${entry.endpoint}, ${entry.status},
              ${entry.durationMs}, ${entry.ip}, ${entry.userAgent}, ${at})
    ), rolled as (
      insert into request_daily_rollup (org_id, api_key_id, day, endpoint, status, count)
      values (${entry.orgId}, ${entry.apiKeyId}, ${utcDay(entry.at)}, ${entry.endpoint}, ${entry.status}, 1)
      on conflict (org_id, api_key_id, day, endpoint, status) do update set count = request_daily_rollup.count + 1
    )
    update api_keys set last_used_at = ${at}
    where ${entry.touchesKey} and org_id = ${entry.orgId} and id = ${entry.apiKeyId}
      and (last_used_at is null or last_used_at < ${at}::timestamptz - interval '1 minute')`);
}
