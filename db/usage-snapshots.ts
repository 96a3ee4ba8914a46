import { sql } from "drizzle-orm";
import { decodeSnapshot, encodeSnapshot, snapshotAt, SNAPSHOT_LEVEL_NAMES, type SnapshotLevel } from "@/core/usage-snapshot";
import type { UsagePart } from "@/core/usage-aggregate";
import { floorToGrain, ROLLUP_GRAIN_MS, rollupKeptSince } from "@/core/usage-grains";
import type { DbOrTx } from "./index";
import { rowsOf } from "./rows";
import { epochMs, partsOf, periodMs, periodWithin, ROLLUP_PART_COLUMNS, ROLLUP_TABLES } from "./rollup-parts";

/**
 * A period is snapshotted this long after it ends. Its rollup rows are final well before: the
 * daily rows are written with the log row, in the transaction the response waits for, and the
 * hourly rows a fold (every second) after it. A request logged later than this into a period
 * already snapshotted would be missed by the snapshot (and by reads of whole past periods).
 */
export const SNAPSHOT_GRACE_MS = 2 * 60_000;

interface Mark {
  org_id: string;
  hours_through: number | null;
  days_through: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A period's documents, one per level: `documentAt` gives the level's parts, summed at it. */
async function insertDocuments(tx: DbOrTx, orgId: string, grain: "hour" | "day", kind: "period" | "cumulative", periodStart: number, documentAt: (level: SnapshotLevel) => UsagePart[]): Promise<void> {
  const values = SNAPSHOT_LEVEL_NAMES.map((level) => sql`(${orgId}, ${grain}, ${kind}, ${level}, ${iso(periodStart)}, ${encodeSnapshot(documentAt(level))})`);
  await tx.execute(sql`insert into usage_snapshot (org_id, grain, kind, level, period_start, document) values ${sql.join(values, sql`, `)}`);
}

/** The rollup rows of a grain from `from` to `to`, by period in time order, as parts. */
async function periodsOf(tx: DbOrTx, orgId: string, grain: "hour" | "day", from: number, to: number): Promise<Map<number, UsagePart[]>> {
  const { table, period } = ROLLUP_TABLES[grain];
  const column = sql`${sql.identifier(period)}`;
  const rows = await tx.execute(sql`select ${periodMs(grain, column)} as period_ms, ${ROLLUP_PART_COLUMNS}
    from ${sql.identifier(table)} where org_id = ${orgId} and ${periodWithin(grain, column, new Date(from), new Date(to))}`);
  const periods = new Map<number, UsagePart[]>();
  for (const part of partsOf(rows)) {
    const list = periods.get(part.periodStart);
    if (list) list.push(part);
    else periods.set(part.periodStart, [part]);
  }
  return new Map([...periods].sort(([a], [b]) => a - b));
}

/** The earliest period of a grain's rollups still kept, or null without any. */
async function firstPeriod(tx: DbOrTx, orgId: string, grain: "hour" | "day", now: Date): Promise<number | null> {
  const { table, period } = ROLLUP_TABLES[grain];
  const [row] = rowsOf<{ first: number | null }>(
    await tx.execute(sql`select ${periodMs(grain, sql`min(${sql.identifier(period)})`)} as first from ${sql.identifier(table)} where org_id = ${orgId}`),
  );
  if (row?.first === null || row?.first === undefined) return null;
  return Math.max(Number(row.first), floorToGrain(rollupKeptSince(grain, now).getTime(), grain));
}

/** Every request of the organization up to the end of the last day snapshotted before `day`, at each level: nothing before its first. */
async function cumulativeBefore(tx: DbOrTx, orgId: string, day: number): Promise<Record<SnapshotLevel, UsagePart[]>> {
  const rows = rowsOf<{ level: SnapshotLevel; document: string }>(
    await tx.execute(sql`
      select distinct on (level) level, document from usage_snapshot
      where org_id = ${orgId} and grain = 'day' and kind = 'cumulative' and period_start < ${iso(day)}
      order by level, period_start desc`),
  );
  const cumulative = Object.fromEntries(SNAPSHOT_LEVEL_NAMES.map((level) => [level, [] as UsagePart[]])) as Record<SnapshotLevel, UsagePart[]>;
  for (const { level, document } of rows) cumulative[level] = decodeSnapshot(document, 0, 1, { groupBy: [] });
  return cumulative;
}

async function snapshotHours(tx: DbOrTx, mark: Mark, closedHours: number, now: Date): Promise<void> {
  const from = mark.hours_through ?? (await firstPeriod(tx, mark.org_id, "hour", now)) ?? closedHours;
  if (from < closedHours) {
    // Hours whose requests still wait for the fold are not final yet: next time.
    const [waiting] = rowsOf<{ waiting: boolean }>(
      await tx.execute(sql`select exists (select 1 from request_rollup_pending where org_id = ${mark.org_id} and created_at < ${iso(closedHours)}) as waiting`),
    );
    if (waiting!.waiting) return;
    for (const [periodStart, parts] of await periodsOf(tx, mark.org_id, "hour", from, closedHours)) {
      await insertDocuments(tx, mark.org_id, "hour", "period", periodStart, (level) => snapshotAt(parts, level));
    }
  }
  await tx.execute(sql`update usage_snapshot_mark set hours_through = ${iso(closedHours)} where org_id = ${mark.org_id}`);
}

async function snapshotDays(tx: DbOrTx, mark: Mark, closedDays: number, now: Date): Promise<void> {
  const from = mark.days_through ?? (await firstPeriod(tx, mark.org_id, "day", now)) ?? closedDays;
  if (from < closedDays) {
    const cumulative = await cumulativeBefore(tx, mark.org_id, from);
    for (const [day, parts] of await periodsOf(tx, mark.org_id, "day", from, closedDays)) {
      await insertDocuments(tx, mark.org_id, "day", "period", day, (level) => snapshotAt(parts, level));
      await insertDocuments(tx, mark.org_id, "day", "cumulative", day, (level) => (cumulative[level] = snapshotAt([...cumulative[level], ...parts], level)));
    }
  }
  await tx.execute(sql`update usage_snapshot_mark set days_through = ${iso(closedDays)} where org_id = ${mark.org_id}`);
}

/**
 * Snapshots every hour and day that ended at least SNAPSHOT_GRACE_MS ago and is not yet, for each
 * organization with a mark, one organization per transaction. A process finding an organization's
 * mark locked by another leaves it to that one. Returns the organizations brought up to date.
 */
export async function buildUsageSnapshots(db: DbOrTx, now = new Date()): Promise<number> {
  const closedHours = floorToGrain(now.getTime() - SNAPSHOT_GRACE_MS, "hour");
  const closedDays = floorToGrain(now.getTime() - SNAPSHOT_GRACE_MS, "day");
  const behind = rowsOf<{ org_id: string }>(
    await db.execute(sql`select org_id from usage_snapshot_mark
      where hours_through is null or hours_through < ${iso(closedHours)} or days_through is null or days_through < ${iso(closedDays)}`),
  );
  let built = 0;
  for (const { org_id: orgId } of behind) {
    await db.transaction(async (tx) => {
      const [mark] = rowsOf<Mark>(
        await tx.execute(sql`select org_id, ${epochMs(sql.raw("hours_through"))} as hours_through, ${epochMs(sql.raw("days_through"))} as days_through
          from usage_snapshot_mark where org_id = ${orgId} for update skip locked`),
      );
      if (!mark) return;
      const through = { ...mark, hours_through: mark.hours_through === null ? null : Number(mark.hours_through), days_through: mark.days_through === null ? null : Number(mark.days_through) };
      if (through.hours_through === null || through.hours_through < closedHours) await snapshotHours(tx, through, closedHours, now);
      if (through.days_through === null || through.days_through < closedDays) await snapshotDays(tx, through, closedDays, now);
      built++;
    });
  }
  return built;
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
      and exists (select 1 from usage_snapshot later where later.org_id = s.org_id and later.grain = 'day' and later.kind = 'cumulative'
                  and later.level = s.level and later.period_start > s.period_start and later.period_start <= ${lastBefore})`);
}

/** Forgets an organization's snapshots so that the next build starts again from its rollups (after they are rebuilt). */
export async function resetUsageSnapshots(db: DbOrTx, orgIds: string[]): Promise<void> {
  const orgs = sql.join(orgIds.map((id) => sql`${id}`), sql`, `);
  await db.execute(sql`delete from usage_snapshot where org_id in (${orgs})`);
  await db.execute(sql`insert into usage_snapshot_mark (org_id) select unnest(array[${orgs}]::text[])
    on conflict (org_id) do update set hours_through = null, days_through = null`);
}
