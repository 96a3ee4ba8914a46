import { sql } from "drizzle-orm";
import { rolesWith } from "@/core/permissions";
import { EXPIRY_REMINDER_DAYS, NOTICE_KINDS, type NoticeKind } from "@/core/notifications";
import { arrayLiteral, type DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";

/**
 * The statements that decide notification emails: each writes rows of notification_emails (once
 * per person and subject, by its unique index) and returns the new ids, which
 * lib/notifications/queue.ts queues as jobs in the same transaction.
 */

/** Each kind's default as a VALUES list: a person without a row for a kind has this. */
const DEFAULTS = sql.raw(
  `(values ${Object.entries(NOTICE_KINDS)
    .map(([kind, { emailByDefault }]) => `('${kind}', ${emailByDefault})`)
    .join(", ")}) as defaults(kind, email)`,
);

/** Whether the membership `m` of kind `kind` (SQL) gets email, by the person's choice or the default. */
function wantsEmail(kind: ReturnType<typeof sql>) {
  return sql`coalesce((select p.email from notification_preferences p where p.org_id = m.org_id and p.user_id = m.user_id and p.kind = ${kind}),
    (select defaults.email from ${DEFAULTS} where defaults.kind = ${kind}))`;
}

const NEW_ID = sql.raw(`'ntf_' || replace(gen_random_uuid()::text, '-', '')`);

const idsOf = (result: unknown) => rowsOf<{ id: string }>(result).map((row) => row.id);

/**
 * The email of each alert just raised, to every member who may see alerts (docs/features/members.md#what-each-role-may-do) and turned
 * that kind on, and, for a leaked key (docs/security.md#leaked-keys-and-secret-scanning), to every owner whatever they chose. Run it in
 * the transaction that raised them. Returns the new emails' ids.
 */
export async function insertAlertEmails(
  tx: DbOrTx,
  alerts: { id: number; orgId: string; kind: NoticeKind; apiKeyId: string | null }[],
  at: Date,
): Promise<string[]> {
  const result = await tx.execute(sql`
    insert into notification_emails (id, org_id, user_id, kind, dedupe_key, alert_id, api_key_id, created_at)
    select ${NEW_ID}, m.org_id, m.user_id, a.kind, 'alert:' || a.id, a.id, a.api_key_id, ${at.toISOString()}::timestamptz
    from unnest(${arrayLiteral(alerts.map((alert) => alert.id))}::bigint[], ${arrayLiteral(alerts.map((alert) => alert.orgId))}::text[],
                ${arrayLiteral(alerts.map((alert) => alert.kind))}::text[], ${arrayLiteral(alerts.map((alert) => alert.apiKeyId))}::text[]) as a(id, org_id, kind, api_key_id)
    join memberships m on m.org_id = a.org_id and m.role::text = any(${arrayLiteral([...rolesWith("alerts.view")])}::text[])
    where ${wantsEmail(sql`a.kind`)} or (a.kind = 'key_leaked' and m.role = 'owner')
    order by m.org_id, m.user_id
    on conflict (org_id, user_id, dedupe_key) do nothing
    returning id`);
  return idsOf(result);
}

/**
 * The expiry reminders: EXPIRY_REMINDER_DAYS before a key expires, to its creator (while a
 * member) and the owners, unless they turned them off; once each, whichever maintenance run sees
 * it first. A key already inside a nearer reminder's window gets only that one (a server down for
 * a week does not send both at once), and a key made with a lifetime shorter than a reminder's
 * days never gets that one: its maker chose the date knowingly. A revoked key, and a key being
 * replaced by a roll (its end is the overlap someone chose), get none. Returns the new emails' ids.
 */
export async function insertExpiryReminders(tx: DbOrTx, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with due as (
      select distinct on (k.id) k.org_id, k.id, k.name, k.created_by, k.expires_at, d.days
      from api_keys k cross join unnest(${arrayLiteral([...EXPIRY_REMINDER_DAYS])}::int[]) as d(days)
      where k.revoked_at is null
        and k.expires_at > ${at}::timestamptz
        and k.expires_at <= ${at}::timestamptz + make_interval(days => d.days)
        and k.expires_at - k.created_at > make_interval(days => d.days)
        and not exists (select from api_keys successor where successor.replaces_key_id = k.id)
      order by k.id, d.days
    )
    insert into notification_emails (id, org_id, user_id, kind, dedupe_key, api_key_id, details, created_at)
    select ${NEW_ID}, m.org_id, m.user_id, 'expiry_reminder',
           'expiry:' || k.id || ':' || to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ':' || k.days, k.id,
           jsonb_build_object('days', k.days, 'expiresAt', to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'keyName', k.name),
           ${at}::timestamptz
    from due k
    join memberships m on m.org_id = k.org_id and (m.role = 'owner' or m.user_id = k.created_by)
    where ${wantsEmail(sql`'expiry_reminder'`)}
    order by m.org_id, m.user_id
    on conflict (org_id, user_id, dedupe_key) do nothing
    returning id`);
  return idsOf(result);
}
