import { sql } from "drizzle-orm";
import type { DbOrTx } from "./index";
import { rollupKeptSince } from "@/core/usage-grains";
import { ROLLUP_TABLES } from "./rollup-parts";
import { rowsOf } from "./rows";
import { dropExpiredSnapshots } from "./usage-snapshots";
import { IDEMPOTENCY_WINDOW_HOURS } from "./schema";

// The request log keeps the current UTC month and the 12 before it (REQUEST_LOG_RETENTION_MONTHS):
// older monthly partitions are dropped whole (no row-by-row delete), and their daily rollups with
// them; the hourly and minute rollups are kept for less (core/usage-grains.ts).
const MONTHS_AHEAD = 2;
// Shared by every process of this service: one of them maintains the partitions at a time.
const MAINTENANCE_LOCK = 727_301_002;

function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

function partitionName(month: Date): string {
  return `request_log_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
}

const PARTITION_NAME = /^request_log_(\d{4})_(\d{2})$/;

/**
 * Creates one request_log partition per UTC month from `from` to `to` (both included) when missing.
 * The seed calls it before it writes its history.
 */
export async function ensureRequestLogPartitions(db: DbOrTx, from: Date, to: Date): Promise<void> {
  // addMonths(from, 0) is the first day of from's month.
  for (let month = addMonths(from, 0); month <= to; month = addMonths(month, 1)) {
    const name = partitionName(month);
    const [row] = rowsOf<{ exists: boolean }>(await db.execute(sql`select to_regclass(${name}) is not null as exists`));
    if (row?.exists) continue;
    await db.execute(
      sql.raw(
        `create table if not exists "${name}" partition of request_log ` +
          `for values from ('${month.toISOString()}') to ('${addMonths(month, 1).toISOString()}')`,
      ),
    );
  }
}

/**
 * Partitions for last month to two months ahead, and the retention: run at start-up and every
 * few hours by each server process, so a long-running process never writes into the default
 * partition (which would block creating that month's partition later).
 */
export async function maintainRequestLog(db: DbOrTx, now = new Date()): Promise<{ dropped: string[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MAINTENANCE_LOCK})`);
    await ensureRequestLogPartitions(tx, addMonths(now, -1), addMonths(now, MONTHS_AHEAD));
    // The first instant the request log still keeps: the start of the oldest month retained.
    const keepFrom = rollupKeptSince("day", now);
    const partitions = rowsOf<{ name: string }>(
      await tx.execute(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'request_log'::regclass`),
    );
    const dropped = partitions
      .map(({ name }) => ({ name, match: PARTITION_NAME.exec(name) }))
      .filter(({ match }) => match && Date.UTC(Number(match[1]), Number(match[2]) - 1, 1) < keepFrom.getTime())
      .map(({ name }) => name);
    for (const name of dropped) await tx.execute(sql.raw(`drop table "${name}"`));
    await tx.execute(sql`delete from request_log_default where created_at < ${keepFrom.toISOString()}`);
    await tx.execute(sql`delete from request_daily_rollup where day < ${keepFrom.toISOString().slice(0, 10)}`);
    for (const grain of ["hour", "minute"] as const) {
      await tx.execute(sql`delete from ${sql.identifier(ROLLUP_TABLES[grain].table)} where period_start < ${rollupKeptSince(grain, now).toISOString()}`);
    }
    await dropExpiredSnapshots(tx, now);
    // Idempotency keys past their window answer as new already; this only frees the space.
    await tx.execute(sql`delete from idempotency_keys where created_at < ${now.toISOString()}::timestamptz - ${IDEMPOTENCY_WINDOW_HOURS}::int * interval '1 hour'`);
    return { dropped };
  });
}
