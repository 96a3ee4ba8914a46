import { sql } from "drizzle-orm";
import type { UsagePart } from "@/core/usage-part";
import { floorToGrain, ROLLUP_GRAIN_MS, rollupKeptSince } from "@/core/usage-grains";
import type { SnapshotLevel } from "@/core/usage-snapshot-levels";
import type { Books, Mode } from "@/core/enums";
import type { DbOrTx } from "../index";
import { rowsOf } from "../rows";
import { epochMs, partsOf, periodMs, periodWithin, ROLLUP_PART_COLUMNS, ROLLUP_TABLES } from "./tables";

/**
 * The statements of the usage snapshots (usage_snapshot, usage_snapshot_mark): what building them
 * reads and writes (lib/usage/snapshots.ts decides what each document holds), and dropping and
 * resetting them with the rollups they came from.
 */

/** How far an organization's snapshots reach, each end in epoch ms, or null before the first. */
export interface SnapshotMark {
  org_id: string;
  hours_through: number | null;
  days_through: number | null;
}

export type SnapshotGrain = "hour" | "day";

const iso = (ms: number) => new Date(ms).toISOString();

/** The organizations whose snapshots have not reached the closed hours or days yet. */
export async function orgsBehind(db: DbOrTx, closedHours: number, closedDays: number): Promise<string[]> {
  const behind = rowsOf<{ org_id: string }>(
    await db.execute(sql`select org_id from usage_snapshot_mark
      where hours_through is null or hours_through < ${iso(closedHours)} or days_through is null or days_through < ${iso(closedDays)}`),
  );
  return behind.map((row) => row.org_id);
}

/** The organization's mark, locked for the transaction; null when another process holds it. */
export async function lockSnapshotMark(tx: DbOrTx, orgId: string): Promise<SnapshotMark | null> {
  const [mark] = rowsOf<SnapshotMark>(
    await tx.execute(sql`select org_id, ${epochMs(sql.raw("hours_through"))} as hours_through, ${epochMs(sql.raw("days_through"))} as days_through
      from usage_snapshot_mark where org_id = ${orgId} for update skip locked`),
  );
  if (!mark) return null;
  return {
    ...mark,
    hours_through: mark.hours_through === null ? null : Number(mark.hours_through),
    days_through: mark.days_through === null ? null : Number(mark.days_through),
  };
}

/** Records that the organization's snapshots of a grain reach `through`. */
export async function markSnapshotsThrough(tx: DbOrTx, orgId: string, grain: SnapshotGrain, through: number): Promise<void> {
  if (grain === "hour") await tx.execute(sql`update usage_snapshot_mark set hours_through = ${iso(through)} where org_id = ${orgId}`);
  else await tx.execute(sql`update usage_snapshot_mark set days_through = ${iso(through)} where org_id = ${orgId}`);
}

/** Whether requests of the organization before `before` still wait for the fold into the hourly rollups. */
export async function foldPendingBefore(tx: DbOrTx, orgId: string, before: number): Promise<boolean> {
  const [waiting] = rowsOf<{ waiting: boolean }>(
    await tx.execute(sql`select exists (select 1 from request_rollup_pending where org_id = ${orgId} and created_at < ${iso(before)}) as waiting`),
  );
  return waiting!.waiting;
}

/** A period's documents of one mode's traffic, one per level, encoded. */
export async function insertSnapshotDocuments(
  tx: DbOrTx,
  books: Books,
  grain: SnapshotGrain,
  kind: "period" | "cumulative",
  periodStart: number,
  documents: { level: SnapshotLevel; document: string }[],
): Promise<void> {
  const values = documents.map(({ level, document }) => sql`(${books.orgId}, ${books.mode}, ${grain}, ${kind}, ${level}, ${iso(periodStart)}, ${document})`);
  await tx.execute(sql`insert into usage_snapshot (org_id, mode, grain, kind, level, period_start, document) values ${sql.join(values, sql`, `)}`);
}

/**
 * The rollup rows of a grain from `from` to `to`, by mode (their key's, docs/features/test-mode.md#traffic),
 * then by period in time order, as parts. A mode without traffic in the stretch has no entry.
 */
export async function rollupPeriods(tx: DbOrTx, orgId: string, grain: SnapshotGrain, from: number, to: number): Promise<Map<Mode, Map<number, UsagePart[]>>> {
  const { table, period } = ROLLUP_TABLES[grain];
  const column = sql`r.${sql.identifier(period)}`;
  // In period order, so each mode's periods are too; api_keys has none of the part's column names.
  const rows = rowsOf<{ mode: Mode }>(
    await tx.execute(sql`select k.mode, ${periodMs(grain, column)} as period_ms, ${ROLLUP_PART_COLUMNS}
    from ${sql.identifier(table)} r join api_keys k on k.id = r.api_key_id and k.org_id = r.org_id
    where r.org_id = ${orgId} and ${periodWithin(grain, column, new Date(from), new Date(to))} order by period_ms`),
  );
  const modes = new Map<Mode, Map<number, UsagePart[]>>();
  partsOf(rows).forEach((part, i) => {
    const mode = rows[i]!.mode;
    let periods = modes.get(mode);
    if (!periods) modes.set(mode, (periods = new Map()));
    const list = periods.get(part.periodStart);
    if (list) list.push(part);
    else periods.set(part.periodStart, [part]);
  });
  return modes;
}

/** The earliest period of a grain's rollups still kept, or null without any. */
export async function firstRollupPeriod(tx: DbOrTx, orgId: string, grain: SnapshotGrain, now: Date): Promise<number | null> {
  const { table, period } = ROLLUP_TABLES[grain];
  const [row] = rowsOf<{ first: number | null }>(
    await tx.execute(sql`select ${periodMs(grain, sql`min(${sql.identifier(period)})`)} as first from ${sql.identifier(table)} where org_id = ${orgId}`),
  );
  if (row?.first === null || row?.first === undefined) return null;
  return Math.max(Number(row.first), floorToGrain(rollupKeptSince(grain, now).getTime(), grain));
}

/** The books' latest cumulative day document of each level before `day`: none for a level before its first. */
export async function cumulativeDocumentsBefore(tx: DbOrTx, books: Books, day: number): Promise<{ level: SnapshotLevel; document: string }[]> {
  return rowsOf<{ level: SnapshotLevel; document: string }>(
    await tx.execute(sql`
      select distinct on (level) level, document from usage_snapshot
      where org_id = ${books.orgId} and mode = ${books.mode} and grain = 'day' and kind = 'cumulative' and period_start < ${iso(day)}
      order by level, period_start desc`),
  );
}

/** Drops the snapshots the rollups they came from no longer back, keeping the last cumulative day before the oldest day still kept. */
export async function dropExpiredSnapshots(tx: DbOrTx, now: Date): Promise<void> {
  const hoursKept = iso(floorToGrain(rollupKeptSince("hour", now).getTime(), "hour"));
  const daysKept = rollupKeptSince("day", now);
  await tx.execute(sql`delete from usage_snapshot where grain = 'hour' and period_start < ${hoursKept}`);
  await tx.execute(sql`delete from usage_snapshot where grain = 'day' and kind = 'period' and period_start < ${daysKept.toISOString()}`);
  // A window's first day D needs the last cumulative document before D: keep the one before the oldest day.
  const lastBefore = iso(daysKept.getTime() - ROLLUP_GRAIN_MS.day);
  await tx.execute(sql`
    delete from usage_snapshot s where s.grain = 'day' and s.kind = 'cumulative' and s.period_start < ${lastBefore}
      and exists (select 1 from usage_snapshot later where later.org_id = s.org_id and later.mode = s.mode and later.grain = 'day' and later.kind = 'cumulative'
                  and later.level = s.level and later.period_start > s.period_start and later.period_start <= ${lastBefore})`);
}

/** Forgets an organization's snapshots so that the next build starts again from its rollups (after they are rebuilt). */
export async function resetUsageSnapshots(db: DbOrTx, orgIds: string[]): Promise<void> {
  const orgs = sql.join(
    orgIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await db.execute(sql`delete from usage_snapshot where org_id in (${orgs})`);
  await db.execute(sql`insert into usage_snapshot_mark (org_id) select unnest(array[${orgs}]::text[])
    on conflict (org_id) do update set hours_through = null, days_through = null`);
}
