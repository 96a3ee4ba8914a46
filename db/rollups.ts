import { sql } from "drizzle-orm";
import type { DbOrTx } from "./index";

/** Recomputes the daily rollups of these organizations from request_log (seed and repair). */
export async function rebuildDailyRollups(db: DbOrTx, orgIds: string[]): Promise<void> {
  if (orgIds.length === 0) return;
  await db.execute(sql`
    insert into request_daily_rollup (org_id, api_key_id, day, endpoint, status, count)
    select org_id, api_key_id, (created_at at time zone 'UTC')::date, endpoint, status, count(*)
    from request_log
    where org_id in (${sql.join(orgIds.map((id) => sql`${id}`), sql`, `)})
    group by 1, 2, 3, 4, 5
    on conflict (org_id, api_key_id, day, endpoint, status) do update set count = excluded.count`);
}
