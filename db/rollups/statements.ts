import { sql } from "drizzle-orm";
import { ROLLUP_GRAINS, rollupKeptSince, type RollupGrain } from "@/core/usage-grains";
import type { DbOrTx } from "../index";
import { resetUsageSnapshots } from "./snapshots";
import { ROLLUP_TABLES } from "./tables";

/**
 * One statement that rolls up the rows of `source` into a grain's table: a count and a latency
 * histogram per key, period, endpoint and status. `source` has request_log's columns and each
 * row's `latency_bucket`, computed once for all grains. "add" adds to what the rows hold (the log
 * writer's batches); "replace" overwrites them (a rebuild from the whole log). Rows go in key
 * order, so batches of several processes lock shared rows in one order.
 */
export function rollupStatement(grain: RollupGrain, source: string, conflict: "add" | "replace"): string {
  const { table, period, periodOf } = ROLLUP_TABLES[grain];
  const update =
    conflict === "add"
      ? `count = r.count + excluded.count, (latency_buckets, latency_counts) =
           (select m.buckets, m.counts from latency_merge(r.latency_buckets, r.latency_counts, excluded.latency_buckets, excluded.latency_counts) m)`
      : `count = excluded.count, latency_buckets = excluded.latency_buckets, latency_counts = excluded.latency_counts`;
  return `
    insert into ${table} as r (org_id, api_key_id, ${period}, endpoint, status, count, latency_buckets, latency_counts)
    select org_id, api_key_id, period, endpoint, status, sum(n)::bigint, array_agg(bucket order by bucket), array_agg(n order by bucket)
    from (
      select org_id, api_key_id, ${periodOf} as period, endpoint, status, latency_bucket as bucket, count(*) as n
      from ${source} group by 1, 2, 3, 4, 5, 6
    ) as per_bucket
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (org_id, api_key_id, ${period}, endpoint, status) do update set ${update}`;
}

/**
 * The grains the log writer keeps in its own group-committed statement: the daily rows, which the
 * audit log's counts and every long window read. The finer grains cost the request path too much
 * there (about 8 % of the gateway's throughput, docs/decisions/0042-pending-rollups-folded-each-second.md): the writer appends each
 * request to request_rollup_pending instead, and foldPendingRollups (db/rollups/fold.ts) moves them into these.
 */
export const WRITTEN_GRAINS = ["day"] as const satisfies readonly RollupGrain[];
export const FOLDED_GRAINS = ["minute", "hour"] as const satisfies readonly RollupGrain[];

/** The writer's part for the folded grains: one narrow row per request of `source`, no upsert. */
export function pendingRollupInsert(source: string): string {
  return `insert into request_rollup_pending (org_id, api_key_id, created_at, endpoint, status, latency_bucket)
    select org_id, api_key_id, created_at, endpoint, status, latency_bucket from ${source}`;
}

/** Recomputes every grain's rollups of these organizations from request_log (seed and repair, with no traffic of theirs meanwhile). */
export async function rebuildRollups(db: DbOrTx, orgIds: string[], now = new Date()): Promise<void> {
  if (orgIds.length === 0) return;
  const orgs = sql.join(
    orgIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Their pending rows are in the log too: folded after the rebuild, they would count twice.
  await db.execute(sql`delete from request_rollup_pending where org_id in (${orgs})`);
  // Snapshots of the old rollups go; the next build takes them again from the new ones.
  await resetUsageSnapshots(db, orgIds);
  for (const grain of ROLLUP_GRAINS) {
    const kept = grain === "day" ? sql`` : sql` and created_at >= ${rollupKeptSince(grain, now).toISOString()}`;
    await db.execute(sql`
      with logged as (select *, latency_bucket(duration_ms) as latency_bucket from request_log where org_id in (${orgs})${kept})
      ${sql.raw(rollupStatement(grain, "logged", "replace"))}`);
  }
}
