import { sql } from "drizzle-orm";
import { KEY_EXPIRING_ALERT_DAYS, RATE_LIMIT_ALERT_MINUTES, type AlertKind, type Mode } from "@/core/enums";
import type { DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";
import { budgetPeriodEnd, type BudgetPeriod } from "@/core/key-budget";

/**
 * The statements that raise alerts (docs/features/alerts.md). Each inserts only what its period has not seen: the unique
 * index on (organization, kind, period) keeps an alert once whichever process or request sees the
 * crossing first, so callers may ask as often as they like. lib/alerts/raise.ts runs them and sends
 * what they return.
 */

/** An alert that was just raised (the webhook deliveries are queued from these). */
export interface RaisedAlert {
  id: number;
  orgId: string;
  kind: AlertKind;
  apiKeyId: string | null;
  /** Its key's mode (docs/features/test-mode.md#webhooks); live for an alert of no key. */
  mode: Mode;
  details: Record<string, string | number>;
}

const RETURNING = sql`returning id::int as id, org_id as "orgId", kind, api_key_id as "apiKeyId", details,
  coalesce((select k.mode from api_keys k where k.id = api_key_id), 'live') as mode`;

/**
 * The month's quota thresholds (percent) that `thresholds` names and the month has not raised yet,
 * once the calls have reached them. `month` is "YYYY-MM-01"; the details keep the call count the
 * threshold stands for, not the racing count of the request that saw it.
 */
export async function insertQuotaAlerts(
  db: DbOrTx,
  alert: { orgId: string; month: string; quota: number; thresholds: number[]; at: Date },
): Promise<RaisedAlert[]> {
  // "2026-11" of the "YYYY-MM-01" month.
  const month = alert.month.slice(0, 7);
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    insert into alerts (org_id, kind, period, details, created_at)
    select ${alert.orgId}, 'quota_threshold', ${month} || ':' || t, jsonb_build_object('threshold', t, 'quota', ${alert.quota}::int, 'calls', ceil(${alert.quota}::int * t / 100.0)::int, 'month', ${month}::text), ${alert.at.toISOString()}::timestamptz
    from unnest(${`{${alert.thresholds.join(",")}}`}::int[]) as t
    order by t
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * The budget thresholds (percent) of a key's period that `thresholds` names and the
 * period has not raised yet. The details keep the request count the threshold stands for.
 */
export async function insertBudgetAlerts(
  db: DbOrTx,
  alert: { orgId: string; apiKeyId: string; limit: number; period: BudgetPeriod; periodStart: Date; thresholds: number[]; at: Date },
): Promise<RaisedAlert[]> {
  const start = alert.periodStart.toISOString();
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    insert into alerts (org_id, kind, period, api_key_id, details, created_at)
    select ${alert.orgId}, 'budget_threshold', ${alert.apiKeyId} || ':' || ${start}::text || ':' || t, ${alert.apiKeyId},
           jsonb_build_object('threshold', t, 'limit', ${alert.limit}::int, 'used', ceil(${alert.limit}::int * t / 100.0)::int, 'period', ${alert.period}::text, 'periodStart', ${start}::text,
                              'resetsAt', ${budgetPeriodEnd(alert.periodStart, alert.period).toISOString()}::text),
           ${alert.at.toISOString()}::timestamptz
    from unnest(${`{${alert.thresholds.join(",")}}`}::int[]) as t
    order by t
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * A key refused for its rate limit more often than its organization's threshold in the last
 * RATE_LIMIT_ALERT_MINUTES one-minute windows (a window's count beyond the limit is its refusals),
 * once per key and UTC hour.
 */
export async function insertRateLimitAlert(db: DbOrTx, alert: { orgId: string; apiKeyId: string; rateLimit: number; at: Date }): Promise<RaisedAlert[]> {
  const at = alert.at.toISOString();
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    with refused as (
      select coalesce(sum(greatest(w.count - ${alert.rateLimit}::int, 0)), 0)::int as n from rate_limit_windows w
      where w.org_id = ${alert.orgId} and w.api_key_id = ${alert.apiKeyId}
        and w.window_start > ${at}::timestamptz - make_interval(mins => ${RATE_LIMIT_ALERT_MINUTES}::int)
    )
    insert into alerts (org_id, kind, period, api_key_id, details, created_at)
    select o.id, 'rate_limited', ${alert.apiKeyId} || ':' || to_char(${at}::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24'), ${alert.apiKeyId},
           jsonb_build_object('refused', r.n, 'minutes', ${RATE_LIMIT_ALERT_MINUTES}::int, 'rateLimit', ${alert.rateLimit}::int, 'threshold', o.rate_limit_alert_threshold), ${at}::timestamptz
    from organizations o, refused r
    where o.id = ${alert.orgId} and r.n > o.rate_limit_alert_threshold
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * Keys expiring within KEY_EXPIRING_ALERT_DAYS and keys that have expired (in the last
 * KEY_EXPIRING_ALERT_DAYS, so a first run does not raise the whole past), once per key and expiry.
 * A key being replaced by a roll is left out: its end is the overlap someone chose. So is the
 * "expiring" of a key made with a lifetime of KEY_EXPIRING_ALERT_DAYS or less: it was inside the
 * window from its first second, on purpose, so the warning would tell its maker nothing (its
 * expiry is still raised). Run by the maintenance timer and at start-up.
 */
export async function insertKeyExpiryAlerts(db: DbOrTx, now: Date): Promise<RaisedAlert[]> {
  const at = now.toISOString();
  const window = sql`make_interval(days => ${KEY_EXPIRING_ALERT_DAYS}::int)`;
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    insert into alerts (org_id, kind, period, api_key_id, details, created_at)
    select k.org_id, case when k.expires_at <= ${at}::timestamptz then 'key_expired' else 'key_expiring' end,
           k.id || ':' || to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), k.id,
           jsonb_build_object('expiresAt', to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
           least(${at}::timestamptz, k.expires_at)
    from api_keys k
    where k.revoked_at is null
      and k.expires_at > ${at}::timestamptz - ${window}
      and k.expires_at <= ${at}::timestamptz + ${window}
      and (k.expires_at <= ${at}::timestamptz or k.expires_at - k.created_at > ${window})
      and not exists (select from api_keys successor where successor.replaces_key_id = k.id)
    order by k.org_id, k.expires_at
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * An endpoint turned off after failing since `failingSince` (docs/features/webhooks.md), once per failing streak.
 * Run it in the transaction that turns the endpoint off (lib/webhooks/worker.ts). No webhook event: the
 * endpoint is the one that no longer receives them.
 */
export async function insertWebhookDisabledAlert(
  db: DbOrTx,
  alert: { orgId: string; endpointId: string; url: string; failingSince: Date; days: number; at: Date },
): Promise<RaisedAlert[]> {
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    insert into alerts (org_id, kind, period, details, created_at)
    values (${alert.orgId}, 'webhook_disabled', ${`${alert.endpointId}:${alert.failingSince.toISOString()}`},
            jsonb_build_object('endpointId', ${alert.endpointId}::text, 'url', ${alert.url}::text, 'days', ${alert.days}::int), ${alert.at.toISOString()}::timestamptz)
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * A key a secret scanner found in public (docs/security.md#leaked-keys-and-secret-scanning), once per key: a second report of the same key
 * raises nothing (and its caller then changes nothing). Run it in the transaction that acts on the
 * report; its webhook event is `key.leaked`.
 */
export async function insertKeyLeakedAlert(
  db: DbOrTx,
  alert: { orgId: string; apiKeyId: string; url: string; source: string; response: "revoke" | "alert"; at: Date },
): Promise<RaisedAlert[]> {
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    insert into alerts (org_id, kind, period, api_key_id, details, created_at)
    values (${alert.orgId}, 'key_leaked', ${alert.apiKeyId}, ${alert.apiKeyId},
            jsonb_build_object('url', ${alert.url}::text, 'source', ${alert.source}::text, 'response', ${alert.response}::text), ${alert.at.toISOString()}::timestamptz)
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}

/**
 * A log stream's events dropped by the 7-day backlog rule (docs/features/log-streams.md#the-7-day-backlog),
 * once per stream and UTC day: a later drop of the same day adds its events to that day's alert
 * rather than raising another, so a stream that stays behind raises one alert a day, which counts
 * the day's drops. Only a new alert is returned (and sent). The stream's name is taken as it is now.
 */
export async function insertLogStreamBacklogAlert(
  db: DbOrTx,
  alert: { orgId: string; streamId: string; dropped: number; days: number; at: Date },
): Promise<RaisedAlert[]> {
  const period = `${alert.streamId}:${alert.at.toISOString().slice(0, 10)}`;
  return rowsOf<RaisedAlert>(
    await db.execute(sql`
    with added as (
      update alerts set details = details || jsonb_build_object('dropped', (details ->> 'dropped')::bigint + ${alert.dropped}::bigint)
      where org_id = ${alert.orgId} and kind = 'log_stream_backlog_dropped' and period = ${period}
      returning id
    )
    insert into alerts (org_id, kind, period, details, created_at)
    select s.org_id, 'log_stream_backlog_dropped', ${period},
           jsonb_build_object('streamId', s.id, 'name', s.name, 'dropped', ${alert.dropped}::bigint, 'days', ${alert.days}::int), ${alert.at.toISOString()}::timestamptz
    from log_streams s
    where s.org_id = ${alert.orgId} and s.id = ${alert.streamId} and not exists (select from added)
    on conflict (org_id, kind, period) do nothing
    ${RETURNING}`),
  );
}
