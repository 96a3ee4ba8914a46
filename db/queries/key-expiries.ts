import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";

/**
 * The system's "expired" entry for every key whose expiry has passed and that no person ended
 * first, once per key (a unique index keeps it once when processes race). The gateway refuses
 * an expired key by itself; this only puts the event in the history, dated when it happened.
 * Run at start-up and by the maintenance timer. Returns how many entries it wrote.
 */
export async function recordKeyExpiries(db: DbOrTx, now = new Date()): Promise<number> {
  const result = await db.execute(sql`
    insert into activity_log (org_id, actor_kind, action, target_type, target_id, target_name, before, after, created_at)
    select k.org_id, 'system', 'api_key.expired', 'api_key', k.id, k.name,
           '{"status": "active"}'::jsonb, jsonb_build_object('status', 'expired', 'expiresAt', to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
           k.expires_at
    from api_keys k
    where k.expires_at <= ${now.toISOString()}::timestamptz
      and (k.revoked_at is null or k.revoked_at > k.expires_at)
    on conflict (org_id, target_id) where action = 'api_key.expired' do nothing
    returning 1 as written`);
  return rowsOf(result).length;
}
