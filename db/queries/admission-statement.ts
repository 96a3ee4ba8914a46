import "server-only";
import { API_RESOURCE_NAMES, API_RESOURCES, permissionRank, type Permission, type Plan } from "@/core/enums";
import { shardCapSql, shardCountSql } from "@/db/queries/monthly-usage";

/** What the gateway's admission statement needs to know of a plan (lib/plans/catalog.ts is the source). */
export interface PlanRule {
  plan: Plan;
  apiAccess: boolean;
  /** Whether the organization's own per-key limit applies instead of `rateLimit`. */
  customRateLimit: boolean;
  rateLimit: number;
  /** Calls a month; null: unlimited. */
  quota: number | null;
}

function sqlLiteral(value: string | number | boolean | null): string {
  if (value === null) return "null::int";
  if (typeof value === "string") {
    if (!/^[a-z_]+$/.test(value)) throw new Error(`Unexpected name ${value}`);
    return `'${value}'`;
  }
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw new Error(`Unexpected plan figure ${value}`);
  return String(value);
}

/** Whether the key (the alias of an `api_keys` row) has expired by `at` (a timestamptz expression). */
export function expiredSql(key: string, at: string): string {
  return `coalesce(${key}.expires_at <= ${at}, false)`;
}

/** Whether the key's IP allowlist admits the address `ip` (a text expression, canonical, null when unknown): an empty list admits any. */
export function ipAllowedSql(key: string, ip: string): string {
  return `case when cardinality(${key}.ip_allowlist) = 0 then true else coalesce(${ip}::inet <<= any(${key}.ip_allowlist::cidr[]), false) end`;
}

/** Each resource's permissions and their ranks (core/enums.ts), as the statement's table. */
function scopeRanksSql(): string {
  return API_RESOURCE_NAMES.flatMap((resource) =>
    (API_RESOURCES[resource].permissions as readonly Permission[]).map(
      (permission) => `(${[resource, permission, permissionRank(resource, permission)].map(sqlLiteral).join(", ")})`,
    ),
  ).join(", ");
}

/**
 * The statement's counting, after `found` (the requests with their keys, plans and checks): each
 * request's place in its key's minute, then in its key's budget period, then in the month's shard.
 */
const COUNTING = `per_minute as (
      select org_id, key_id, window_start, count(*)::int as n from found where counts group by 1, 2, 3
    ), rate as (
      -- In key order, so that concurrent batches lock shared rows in one order.
      insert into rate_limit_windows (org_id, api_key_id, window_start, count)
      select org_id, key_id, window_start, n from per_minute order by 1, 2, 3
      on conflict (org_id, api_key_id, window_start) do update set count = rate_limit_windows.count + excluded.count
      returning org_id, api_key_id, window_start, count
    ), placed as (
      select f.ord, (r.count - m.n + row_number() over (partition by f.org_id, f.key_id, f.window_start order by f.ord))::int as rate_count
      from found f
      join per_minute m on m.org_id = f.org_id and m.key_id = f.key_id and m.window_start = f.window_start
      join rate r on r.org_id = f.org_id and r.api_key_id = f.key_id and r.window_start = f.window_start
      where f.counts
    ), month as (
      select g.org_id, g.month, coalesce(sum(u.count), 0)::int as used
      from (select distinct org_id, month from found where quota is not null) g
      left join monthly_usage u on u.org_id = g.org_id and u.month = g.month
      group by 1, 2
    ), budget_asks as (
      -- The requests a key's budget counts: within their minute's limit, while the month had room
      -- (a request the quota refuses does not use the budget).
      select f.ord, f.org_id, f.key_id, f.budget_start, f.budget_limit
      from found f join placed p on p.ord = f.ord left join month m on m.org_id = f.org_id and m.month = f.month
      where f.budget_limit is not null and p.rate_count <= f.rate_limit and (f.quota is null or (f.quota > 0 and m.used < f.quota))
    ), per_budget as (
      select org_id, key_id, budget_start, min(budget_limit) as budget_limit, count(*)::int as n from budget_asks group by 1, 2, 3
    ), budget as (
      -- In key order, as the minutes above. Only the places left under the limit are taken.
      insert into key_budget_usage (org_id, api_key_id, period_start, used, prior, budget_limit)
      select org_id, key_id, budget_start, least(n, budget_limit), 0, budget_limit from per_budget order by 1, 2, 3
      on conflict (org_id, api_key_id, period_start) do update
        set prior = key_budget_usage.used,
            used = key_budget_usage.used + least(excluded.used, greatest(0, excluded.budget_limit - key_budget_usage.used)),
            budget_limit = excluded.budget_limit
      returning org_id, api_key_id, period_start, prior, used
    ), budget_placed as (
      select a.ord, (b.prior + row_number() over (partition by a.org_id, a.key_id, a.budget_start order by a.ord))::int as place, b.used
      from budget_asks a join budget b on b.org_id = a.org_id and b.api_key_id = a.key_id and b.period_start = a.budget_start
    ), eligible as (
      -- The requests the month counts: within their minute's limit and their key's budget, while the month had room.
      select f.ord, f.org_id, f.month, f.quota, f.shard, row_number() over (partition by f.org_id, f.month order by f.ord) as place
      from found f join placed p on p.ord = f.ord join month m on m.org_id = f.org_id and m.month = f.month
      left join budget_placed bp on bp.ord = f.ord
      where f.quota > 0 and p.rate_count <= f.rate_limit and m.used < f.quota and (f.budget_limit is null or bp.place <= bp.used)
    ), wanted as (
      -- One shard per organization and month, drawn by the batch's first request there.
      select org_id, month, (array_agg(shard order by ord))[1] as shard, min(quota) as quota, count(*)::int as n
      from eligible group by 1, 2
    ), capped as (
      select org_id, month, shard, n, ${shardCapSql("quota", "shard")} as cap from wanted
    ), locked as (
      select u.org_id, u.month, u.shard, u.count from monthly_usage u
      join capped w on w.org_id = u.org_id and w.month = u.month and w.shard = u.shard
      order by 1, 2, 3
      for update of u
    ), bumped as (
      update monthly_usage u set count = least(w.cap, l.count + w.n), cap = w.cap
      from locked l join capped w on w.org_id = l.org_id and w.month = l.month and w.shard = l.shard
      where u.org_id = l.org_id and u.month = l.month and u.shard = l.shard and l.count < w.cap
      returning u.org_id, u.month, l.count as before, u.count as after
    ), opened as (
      -- The shard's first calls of the month. Opened meanwhile by another batch, it counts nothing here.
      insert into monthly_usage (org_id, month, shard, count, cap)
      select w.org_id, w.month, w.shard, least(w.n, w.cap), w.cap from capped w
      where w.cap > 0 and not exists (select from locked l where l.org_id = w.org_id and l.month = w.month and l.shard = w.shard)
      on conflict (org_id, month, shard) do nothing
      returning org_id, month, 0 as before, count as after
    ), taken as (
      select org_id, month, before, after from bumped union all select org_id, month, before, after from opened
    )`;

/** What the statement returns for each request, by its place in the batch (`ord`). */
const ANSWER = `select f.ord, f.key_id, f.org_id, f.mode, f.revoked, f.expires_at, f.expired, f.access, f.ip_allowed, f.scope_allowed, f.plan, f.rate_limit, p.rate_count, f.quota,
           (case when e.place <= t.after - t.before then m.used + e.place
                 else coalesce(m.used + t.after - t.before, m.used, 0) end)::int as quota_used,
           coalesce(e.place <= t.after - t.before, false) as quota_counted, f.quota_alert_thresholds,
           -- As numbers: no timestamp to parse per row on the hot path. The month is added in UTC.
           f.budget_limit, f.budget_period, (extract(epoch from f.budget_start) * 1000)::float8 as budget_start_ms,
           extract(epoch from (f.budget_start at time zone 'UTC' + ('1 ' || f.budget_period)::interval) at time zone 'UTC')::float8 as budget_reset_s,
           (case when bp.ord is not null then least(bp.place, bp.used) else coalesce(b.used, cur.used, 0) end)::int as budget_used,
           coalesce(bp.place <= bp.used, false) as budget_counted,
           coalesce(case when bp.ord is not null then bp.place > bp.used else coalesce(b.used, cur.used, 0) >= f.budget_limit end, false) as budget_exceeded,
           -- Without a quota or a budget the only write is a one-minute counter: its commit need not
           -- wait for the disk. A crash of PostgreSQL could forget the last few counts of a minute;
           -- a month's quota or a key's budget, caps people pay or plan by, never.
           (select case when bool_and(quota is null and budget_limit is null) then set_config('synchronous_commit', 'off', true) end from found) as commit_mode
    from found f
    left join placed p on p.ord = f.ord
    left join budget_placed bp on bp.ord = f.ord
    -- Where a request that was not counted leaves the budget: as this batch left it, or else as the
    -- statement found it.
    left join budget b on bp.ord is null and b.org_id = f.org_id and b.api_key_id = f.key_id and b.period_start = f.budget_start
    left join key_budget_usage cur on bp.ord is null and b.org_id is null and f.budget_limit is not null
      and cur.org_id = f.org_id and cur.api_key_id = f.key_id and cur.period_start = f.budget_start
    left join month m on m.org_id = f.org_id and m.month = f.month
    left join eligible e on e.ord = f.ord
    left join taken t on t.org_id = f.org_id and t.month = f.month`;

/**
 * The gateway's one statement before the handler, for a batch of requests, in the documented order: each
 * key by its hash, whether the client's address is on its allowlist, its organization's plan,
 * whether its access covers the request, then (unless the key is revoked or expired by the
 * request's time, the address or the access is refused, or the plan has no API access) the request
 * counted in its key's minute, then (unless that minute is full) counted in its key's budget
 * period when the key has a budget (docs/features/key-budgets.md) and the month still has room, then (unless the
 * budget is used up) counted in the month, when the plan has a quota, the key is live and the month still has room.
 *
 * Requests of one key and minute take consecutive places after those counted before, in the
 * batch's order. So do the requests of one key and budget period, up to the budget: the upsert adds
 * only the places left, and keeps the count it found in `prior`, so each request knows its place. The month's calls of one organization are counted together on one shard drawn at
 * random, up to its cap; the requests beyond it (the shard filled up) are left to countOnFreeShard.
 *
 * A read-only key may send GET and HEAD; a restricted key needs, on the request's resource, a
 * permission ranked at least as high as the one asked for (write includes read).
 *
 * $1 key hashes, $2 minute starts, $3 months, $4 random numbers in [0, 1) that draw the shards,
 * $5 the requests' times, $6 the resources asked for (null for a path of none), $7 the rank of the
 * permission asked for, $8 whether the method is safe (GET, HEAD), $9 the client addresses (null
 * when unknown): one element per request.
 */
export function admissionStatement(rules: PlanRule[]): string {
  const values = rules
    .map((rule) => `(${[rule.plan, rule.apiAccess, rule.customRateLimit, rule.rateLimit, rule.quota].map(sqlLiteral).join(", ")})`)
    .join(", ");
  return `
    with rules (plan, api_access, custom_rate_limit, rate_limit, quota) as (values ${values}),
    scope_ranks (resource, permission, rank) as (values ${scopeRanksSql()}),
    request as (
      select * from unnest($1::text[], $2::timestamptz[], $3::date[], $4::float8[], $5::timestamptz[], $6::text[], $7::int[], $8::bool[], $9::text[])
        with ordinality as r(key_hash, window_start, month, draw, at, resource, rank, safe, ip, ord)
    ), keyed as (
      -- A test key's calls never count toward the month (docs/features/test-mode.md#limits): no quota for them.
      select r.ord::int as ord, r.window_start, r.month, k.id as key_id, k.org_id, k.mode, k.revoked_at is not null as revoked, o.plan,
             case when k.mode = 'live' then ru.quota end as quota,
             k.expires_at, ${expiredSql("k", "r.at")} as expired, k.access, ru.api_access, o.quota_alert_thresholds,
             ${ipAllowedSql("k", "r.ip")} as ip_allowed,
             case k.access when 'full' then true
                  when 'read_only' then r.safe
                  else r.resource is null or coalesce((select s.rank from scope_ranks s where s.resource = r.resource and s.permission = k.scopes->>r.resource), 0) >= r.rank
             end as scope_allowed,
             case when ru.custom_rate_limit then coalesce(o.rate_limit_per_minute, ru.rate_limit) else ru.rate_limit end as rate_limit,
             k.budget_limit, k.budget_period, date_trunc(k.budget_period, r.at, 'UTC') as budget_start,
             floor(r.draw * ${shardCountSql("ru.quota")})::int as shard
      from request r
      join api_keys k on k.key_hash = r.key_hash
      join organizations o on o.id = k.org_id
      join rules ru on ru.plan = o.plan::text
    ), found as (
      select *, not revoked and not expired and ip_allowed and api_access and scope_allowed as counts from keyed
    ),
    ${COUNTING}
    ${ANSWER}`;
}
