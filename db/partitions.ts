import { sql } from "drizzle-orm";
import type { DbOrTx } from "./index";

function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

function partitionName(month: Date): string {
  return `request_log_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * Creates one request_log partition per UTC month from `from` to `to` (both included) when missing.
 * Runs at start-up for last month to two months ahead, and before the seed writes its history.
 */
export async function ensureRequestLogPartitions(db: DbOrTx, from: Date, to: Date): Promise<void> {
  for (let month = monthStart(from); month <= to; month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))) {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const name = partitionName(month);
    const [row] = rowsOf<{ exists: boolean }>(await db.execute(sql`select to_regclass(${name}) is not null as exists`));
    if (row?.exists) continue;
    await db.execute(
      sql.raw(
        `create table if not exists "${name}" partition of request_log ` +
          `for values from ('${month.toISOString()}') to ('${next.toISOString()}')`,
      ),
    );
  }
}

/** postgres.js returns rows as the result itself; PGlite wraps them in `.rows`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
