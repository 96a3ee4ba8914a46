import { sql } from "drizzle-orm";
import type { DbOrTx } from "../index";
import { rowsOf } from "../rows";
import { FOLDED_GRAINS, rollupStatement } from "./statements";

// Any constant shared by every process of this service: one fold at a time.
const FOLD_LOCK = 727_301_003;

/**
 * Moves every pending request into the minute and hour rollups, in one statement: the rows a
 * fold deletes are the rows it adds, and a row committed during the fold waits for the next one,
 * so each request is counted once whatever the order of commits across processes. A fold that
 * finds another running does nothing. An organization folded for the first time gets its
 * usage_snapshot_mark, so its closed periods are snapshotted (lib/usage/snapshots.ts). Returns the
 * number of requests folded.
 */
export async function foldPendingRollups(db: DbOrTx): Promise<number> {
  const result = await db.execute(
    sql.raw(`
      with folding as (select pg_try_advisory_xact_lock(${FOLD_LOCK}) as mine),
      moved as (
        delete from request_rollup_pending where (select mine from folding)
        returning org_id, api_key_id, created_at, endpoint, status, latency_bucket
      ), ${FOLDED_GRAINS.map((grain) => `rolled_by_${grain} as (${rollupStatement(grain, "moved", "add")})`).join(", ")},
      marked as (insert into usage_snapshot_mark (org_id) select distinct org_id from moved on conflict (org_id) do nothing)
      select count(*)::int as folded from moved`),
  );
  return rowsOf<{ folded: number }>(result)[0]!.folded;
}
