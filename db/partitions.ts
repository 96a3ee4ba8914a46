import { sql } from "drizzle-orm";
import type { DbOrTx } from "./index";
import { rollupKeptSince } from "@/core/usage-grains";
import { DETAIL_RETENTION_DAYS } from "@/core/request-log";
import { ROLLUP_TABLES } from "./rollups/tables";
import { rowsOf } from "./rows";
import { dropExpiredSnapshots } from "./rollups/snapshots";
import { IDEMPOTENCY_WINDOW_HOURS } from "./schema";

// The request log keeps the current UTC month and the 12 before it (REQUEST_LOG_RETENTION_MONTHS):
// older monthly partitions are dropped whole (no row-by-row delete), and their daily rollups with
// them; the hourly and minute rollups are kept for less (core/usage-grains.ts). The requests'
// details (bodies) are kept DETAIL_RETENTION_DAYS in daily partitions, dropped the same way.
const MONTHS_AHEAD = 2;
// Maintenance runs every few hours: the days until it surely runs again, and some.
const DAYS_AHEAD = 3;
// Shared by every process of this service: one of them maintains the partitions at a time.
const MAINTENANCE_LOCK = 727_301_002;
const DAY_MS = 24 * 3600_000;

function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

function addDays(date: Date, days: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

/** A range-partitioned table's partitions: one per UTC month or day, named `<table>_2026_11` or `<table>_2026_11_26`. */
const PARTITIONED = {
  request_log: { next: (start: Date) => addMonths(start, 1), first: (at: Date) => addMonths(at, 0), suffix: 7 },
  request_detail: { next: (start: Date) => addDays(start, 1), first: (at: Date) => addDays(at, 0), suffix: 10 },
} as const;
type PartitionedTable = keyof typeof PARTITIONED;

function partitionName(table: PartitionedTable, start: Date): string {
  return `${table}_${start.toISOString().slice(0, PARTITIONED[table].suffix).replaceAll("-", "_")}`;
}

/** Creates the partitions of `table` covering `from` to `to` (both included) when missing. */
async function ensurePartitions(db: DbOrTx, table: PartitionedTable, from: Date, to: Date): Promise<void> {
  const { first, next } = PARTITIONED[table];
  for (let start = first(from); start <= to; start = next(start)) {
    const name = partitionName(table, start);
    const [row] = rowsOf<{ exists: boolean }>(await db.execute(sql`select to_regclass(${name}) is not null as exists`));
    if (row?.exists) continue;
    await db.execute(
      sql.raw(`create table if not exists "${name}" partition of ${table} for values from ('${start.toISOString()}') to ('${next(start).toISOString()}')`),
    );
  }
}

/** Drops the partitions of `table` that end at `keepFrom` or before; returns their names. */
async function dropPartitionsBefore(db: DbOrTx, table: PartitionedTable, keepFrom: Date): Promise<string[]> {
  const partitions = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`),
  );
  const pattern = new RegExp(`^${table}_(\\d{4})_(\\d{2})(?:_(\\d{2}))?$`);
  const dropped = partitions
    .map(({ name }) => ({ name, match: pattern.exec(name) }))
    .filter(({ match }) => match && PARTITIONED[table].next(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1)))) <= keepFrom)
    .map(({ name }) => name);
  for (const name of dropped) await db.execute(sql.raw(`drop table "${name}"`));
  await db.execute(sql.raw(`delete from ${table}_default where created_at < '${keepFrom.toISOString()}'`));
  return dropped;
}

/**
 * Creates one request_log partition per UTC month from `from` to `to` (both included) when missing.
 * The seed calls it before it writes its history.
 */
export function ensureRequestLogPartitions(db: DbOrTx, from: Date, to: Date): Promise<void> {
  return ensurePartitions(db, "request_log", from, to);
}

/** The same for request_detail, one partition per UTC day: the seed's details of its failed requests. */
export function ensureRequestDetailPartitions(db: DbOrTx, from: Date, to: Date): Promise<void> {
  return ensurePartitions(db, "request_detail", from, to);
}

/**
 * Partitions for last month to two months ahead, and the retention: run at start-up and every
 * few hours by each server process, so a long-running process never writes into the default
 * partition (which would block creating that month's partition later).
 */
export async function maintainRequestLog(db: DbOrTx, now = new Date()): Promise<{ dropped: string[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MAINTENANCE_LOCK})`);
    await ensurePartitions(tx, "request_log", addMonths(now, -1), addMonths(now, MONTHS_AHEAD));
    await ensurePartitions(tx, "request_detail", addDays(now, -1), addDays(now, DAYS_AHEAD));
    // The first instant the request log still keeps: the start of the oldest month retained.
    const keepFrom = rollupKeptSince("day", now);
    const dropped = [
      ...(await dropPartitionsBefore(tx, "request_log", keepFrom)),
      ...(await dropPartitionsBefore(tx, "request_detail", new Date(now.getTime() - DETAIL_RETENTION_DAYS * DAY_MS))),
    ];
    await tx.execute(sql`delete from request_daily_rollup where day < ${keepFrom.toISOString().slice(0, 10)}`);
    for (const grain of ["hour", "minute"] as const) {
      await tx.execute(sql`delete from ${sql.identifier(ROLLUP_TABLES[grain].table)} where period_start < ${rollupKeptSince(grain, now).toISOString()}`);
    }
    await dropExpiredSnapshots(tx, now);
    // A key's budget counts in its current period only (docs/features/key-budgets.md): periods that began before last month are history nobody reads.
    await tx.execute(sql`delete from key_budget_usage where period_start < ${addMonths(now, -1).toISOString()}`);
    // Idempotency keys past their window answer as new already; this only frees the space.
    await tx.execute(
      sql`delete from idempotency_keys where created_at < ${now.toISOString()}::timestamptz - ${IDEMPOTENCY_WINDOW_HOURS}::int * interval '1 hour'`,
    );
    return { dropped };
  });
}
