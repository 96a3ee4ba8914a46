import type { UsagePart } from "@/core/usage-part";
import { floorToGrain } from "@/core/usage-grains";
import { SNAPSHOT_LEVEL_NAMES, type SnapshotLevel } from "@/core/usage-snapshot-levels";
import type { DbOrTx } from "@/db";
import type { Books } from "@/core/enums";
import {
  cumulativeDocumentsBefore,
  firstRollupPeriod,
  foldPendingBefore,
  insertSnapshotDocuments,
  lockSnapshotMark,
  markSnapshotsThrough,
  orgsBehind,
  rollupPeriods,
  type SnapshotGrain,
  type SnapshotMark,
} from "@/db/rollups/snapshots";
import { decodeSnapshot, encodeSnapshot, snapshotAt } from "./snapshot-document";

/**
 * Building the snapshots of closed hours and days (lib/usage/snapshot-document.ts says why), run
 * every minute by each server process (servers/maintenance.ts) and after the seed's traffic; their
 * statements are in db/rollups/snapshots.ts.
 */

/**
 * A period is snapshotted this long after it ends. Its rollup rows are final well before: the
 * daily rows are written with the log row, in the transaction the response waits for, and the
 * hourly rows a fold (every second) after it. A request logged later than this into a period
 * already snapshotted would be missed by the snapshot (and by reads of whole past periods).
 */
export const SNAPSHOT_GRACE_MS = 2 * 60_000;

/** A period's documents of one mode's traffic, one per level: `documentAt` gives the level's parts, summed at it. */
async function insertDocuments(
  tx: DbOrTx,
  books: Books,
  grain: SnapshotGrain,
  kind: "period" | "cumulative",
  periodStart: number,
  documentAt: (level: SnapshotLevel) => UsagePart[],
): Promise<void> {
  const documents = SNAPSHOT_LEVEL_NAMES.map((level) => ({ level, document: encodeSnapshot(documentAt(level)) }));
  await insertSnapshotDocuments(tx, books, grain, kind, periodStart, documents);
}

/** Every request of the books up to the end of the last day snapshotted before `day`, at each level: nothing before its first. */
async function cumulativeBefore(tx: DbOrTx, books: Books, day: number): Promise<Record<SnapshotLevel, UsagePart[]>> {
  const rows = await cumulativeDocumentsBefore(tx, books, day);
  const cumulative = Object.fromEntries(SNAPSHOT_LEVEL_NAMES.map((level) => [level, [] as UsagePart[]])) as Record<SnapshotLevel, UsagePart[]>;
  for (const { level, document } of rows) cumulative[level] = decodeSnapshot(document, 0, 1, { groupBy: [] });
  return cumulative;
}

// Each mode's traffic has documents of its own (docs/features/test-mode.md#traffic): a read of one
// mode never sums the other's.

async function snapshotHours(tx: DbOrTx, mark: SnapshotMark, closedHours: number, now: Date): Promise<void> {
  const from = mark.hours_through ?? (await firstRollupPeriod(tx, mark.org_id, "hour", now)) ?? closedHours;
  if (from < closedHours) {
    // Hours whose requests still wait for the fold are not final yet: next time.
    if (await foldPendingBefore(tx, mark.org_id, closedHours)) return;
    for (const [mode, periods] of await rollupPeriods(tx, mark.org_id, "hour", from, closedHours)) {
      const books = { orgId: mark.org_id, mode };
      for (const [periodStart, parts] of periods) await insertDocuments(tx, books, "hour", "period", periodStart, (level) => snapshotAt(parts, level));
    }
  }
  await markSnapshotsThrough(tx, mark.org_id, "hour", closedHours);
}

async function snapshotDays(tx: DbOrTx, mark: SnapshotMark, closedDays: number, now: Date): Promise<void> {
  const from = mark.days_through ?? (await firstRollupPeriod(tx, mark.org_id, "day", now)) ?? closedDays;
  if (from < closedDays) {
    for (const [mode, days] of await rollupPeriods(tx, mark.org_id, "day", from, closedDays)) {
      const books = { orgId: mark.org_id, mode };
      const cumulative = await cumulativeBefore(tx, books, from);
      for (const [day, parts] of days) {
        await insertDocuments(tx, books, "day", "period", day, (level) => snapshotAt(parts, level));
        await insertDocuments(tx, books, "day", "cumulative", day, (level) => (cumulative[level] = snapshotAt([...cumulative[level], ...parts], level)));
      }
    }
  }
  await markSnapshotsThrough(tx, mark.org_id, "day", closedDays);
}

/**
 * Snapshots every hour and day that ended at least SNAPSHOT_GRACE_MS ago and is not yet, for each
 * organization with a mark, one organization per transaction. A process finding an organization's
 * mark locked by another leaves it to that one. Returns the organizations brought up to date.
 */
export async function buildUsageSnapshots(db: DbOrTx, now = new Date()): Promise<number> {
  const closedHours = floorToGrain(now.getTime() - SNAPSHOT_GRACE_MS, "hour");
  const closedDays = floorToGrain(now.getTime() - SNAPSHOT_GRACE_MS, "day");
  let built = 0;
  for (const orgId of await orgsBehind(db, closedHours, closedDays)) {
    await db.transaction(async (tx) => {
      const through = await lockSnapshotMark(tx, orgId);
      if (!through) return;
      if (through.hours_through === null || through.hours_through < closedHours) await snapshotHours(tx, through, closedHours, now);
      if (through.days_through === null || through.days_through < closedDays) await snapshotDays(tx, through, closedDays, now);
      built++;
    });
  }
  return built;
}
