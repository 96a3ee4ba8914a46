import { sql } from "drizzle-orm";
import { queryPrepared, type DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";
import { utcMonthStart } from "@/core/time";
import { keyOfMode } from "./keys-of-mode";

/**
 * How many rows a month's quota is spread over. Each request of an organization locks one of
 * them, chosen at random, instead of all of them queueing on one row until their commit is on
 * disk.
 */
export const QUOTA_SHARDS = 8;

/** SQL for the number of shards a quota is spread over. */
export function shardCountSql(quota: string): string {
  return `least(${QUOTA_SHARDS}, ${quota})`;
}

/** SQL for shard `shard`'s part of `amount` divided as evenly as it goes over a quota's shards. */
function shareSql(amount: string, quota: string, shard: string): string {
  return `(${amount} / ${shardCountSql(quota)} + (${shard} < ${amount} % ${shardCountSql(quota)})::int)`;
}

/** SQL for shard `shard`'s cap under `quota`: the caps of a month always sum to the quota. */
export function shardCapSql(quota: string, shard: string): string {
  return shareSql(quota, quota, shard);
}

/**
 * SQL that counts one call on the shard each row of `rows` names (columns: org_id, month, shard,
 * cap), only while that shard is under its cap; returns the shard's new count, or no row when it
 * was full. The row lock of the upsert keeps the cap exact under concurrency. (The gateway's batch
 * counts several calls at once with a row locked first: admissionStatement in db/queries/admission-statement.ts.)
 */
function countUnderCapSql(rows: string): string {
  return `insert into monthly_usage (org_id, month, shard, count, cap)
    select org_id, month, shard, 1, cap from (${rows}) as shard_call
    on conflict (org_id, month, shard) do update set count = monthly_usage.count + 1, cap = excluded.cap
    where monthly_usage.count < excluded.cap
    returning count`;
}

// The quota counts the requests that passed authentication and rate limiting.
const ADMITTED = "status not in (401, 403, 429)";

/**
 * Calls this month that count toward a quota: the shards' sum while a quota applies, the daily
 * rollups' live requests for a plan without one (which writes no counter); the larger of the two
 * covers a month that had both. A test key's calls count toward neither (docs/features/test-mode.md#limits).
 */
export async function callsThisMonth(db: DbOrTx, orgId: string, now = new Date()): Promise<number> {
  const month = utcMonthStart(now);
  const [row] = rowsOf<{ calls: number }>(
    await db.execute(sql`
      select greatest(
        (select coalesce(sum(count), 0) from monthly_usage where org_id = ${orgId} and month = ${month}),
        (select coalesce(sum(count), 0) from request_daily_rollup r where org_id = ${orgId} and day >= ${month} and ${sql.raw(ADMITTED)}
           and ${keyOfMode(sql.raw("r.api_key_id"), { orgId, mode: "live" })})
      )::int as calls`),
  );
  return row?.calls ?? 0;
}

/**
 * Lays this month's calls out for `quota` (a plan change, the seed): the part within the quota
 * spread over the shards under their caps, the rest in shard -1, which accepts nothing. Afterwards
 * the shards accept exactly `quota` minus the calls already made. Run it in the transaction that
 * changes the plan.
 */
export async function spreadMonthlyUsage(db: DbOrTx, orgId: string, quota: number | null, now = new Date()): Promise<void> {
  if (quota === null || quota <= 0) return;
  const month = utcMonthStart(now);
  const total = await callsThisMonth(db, orgId, now);
  await db.execute(sql`delete from monthly_usage where org_id = ${orgId} and month = ${month}`);
  await db.execute(sql`
    with spread as (select least(${total}::int, ${quota}::int) as kept, ${quota}::int as quota)
    insert into monthly_usage (org_id, month, shard, count, cap)
    select ${orgId}, ${month}::date, n, ${sql.raw(shareSql("kept", "quota", "n"))}, ${sql.raw(shardCapSql("quota", "n"))}
    from spread, generate_series(0, ${sql.raw(shardCountSql("quota"))} - 1) as n
    union all
    select ${orgId}, ${month}::date, -1, ${total}::int - kept, 0 from spread where ${total}::int > kept`);
}

// The shard with the most room left, from a fresh snapshot; its conditional upsert can still find
// it full when a concurrent request took the last place, and the caller then tries again.
const COUNT_ON_FREE_SHARD = `
  with month as (
    select coalesce(sum(count), 0)::int as used from monthly_usage where org_id = $1 and month = $2::date
  ), room as (
    select n, ${shardCapSql("$3::int", "n")} as cap from generate_series(0, ${shardCountSql("$3::int")} - 1) as n
  ), pick as (
    select r.n, r.cap from room r left join monthly_usage u on u.org_id = $1 and u.month = $2::date and u.shard = r.n, month m
    where coalesce(u.count, 0) < r.cap and m.used < $3::int
    order by r.cap - coalesce(u.count, 0) desc, random() limit 1
  ), counted as (
    ${countUnderCapSql("select $1 as org_id, $2::date as month, n as shard, cap from pick")}
  )
  select exists (select from pick) as had_room, exists (select from counted) as counted, used from month`;

/**
 * Counts a call on any shard with room, for when the shard the gateway drew was full. `used` is
 * the month's count, this call included when it was counted; not counted means the quota is used
 * up.
 */
export async function countOnFreeShard(orgId: string, month: string, quota: number): Promise<{ counted: boolean; used: number }> {
  // A shard that was seen with room and then refused the call has just reached its cap, and caps
  // do not move within a plan, so this ends within QUOTA_SHARDS tries.
  for (let attempt = 0; attempt <= QUOTA_SHARDS; attempt++) {
    const [row] = await queryPrepared<{ had_room: boolean; counted: boolean; used: number }>(COUNT_ON_FREE_SHARD, [orgId, month, quota]);
    if (row!.counted) return { counted: true, used: row!.used + 1 };
    if (!row!.had_room) return { counted: false, used: row!.used };
  }
  throw new Error(`Counting a call of ${orgId} for ${month} found a shard with room ${QUOTA_SHARDS + 1} times and lost it each time`);
}
