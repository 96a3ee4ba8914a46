import { sql, type SQL } from "drizzle-orm";
import { errorsOf, type UsagePart } from "@/core/usage-part";
import type { RollupGrain } from "@/core/usage-grains";
import { rowsOf } from "../rows";

/** Where each grain's rollups live and how a request_log row's time maps to its period. */
export const ROLLUP_TABLES: Record<RollupGrain, { table: string; period: string; periodOf: string }> = {
  minute: { table: "request_minute_rollup", period: "period_start", periodOf: "date_trunc('minute', created_at, 'UTC')" },
  hour: { table: "request_hourly_rollup", period: "period_start", periodOf: "date_trunc('hour', created_at, 'UTC')" },
  day: { table: "request_daily_rollup", period: "day", periodOf: "(created_at at time zone 'UTC')::date" },
};

/** A timestamp as epoch milliseconds, the way usage parts carry instants. */
export function epochMs(timestamp: SQL): SQL {
  return sql`(extract(epoch from ${timestamp}) * 1000)::float8`;
}

/** A period's start as epoch milliseconds, from a grain's period column (a date for days) or a timestamp's period. */
export function periodMs(grain: RollupGrain, column: SQL): SQL {
  return grain === "day" ? sql`((${column} - date '1970-01-01') * 86400000::float8)` : epochMs(column);
}

/** The periods of a grain's column from `from` (included) to `to` (excluded), both on its boundaries. */
export function periodWithin(grain: RollupGrain, column: SQL, from: Date, to: Date): SQL {
  const bound = (at: Date) => (grain === "day" ? at.toISOString().slice(0, 10) : at.toISOString());
  return sql`${column} >= ${bound(from)} and ${column} < ${bound(to)}`;
}

/** A rollup row's columns as a usage part needs them, after its `period_ms`. */
export const ROLLUP_PART_COLUMNS = sql.raw("api_key_id, endpoint, status, count, latency_buckets, latency_counts");

/** Array columns as the drivers give them: numbers (PGlite) or the digits of a bigint (postgres.js). */
const numbers = (values: readonly (number | string)[]): number[] => (typeof values[0] === "number" ? (values as number[]) : values.map(Number));

/** Rows of `period_ms` and ROLLUP_PART_COLUMNS as usage parts (core/usage-part.ts). */
export function partsOf(result: unknown): UsagePart[] {
  return rowsOf<Record<string, unknown>>(result).map((row) => {
    const status = Number(row.status);
    const count = Number(row.count);
    return {
      periodStart: Number(row.period_ms),
      keyId: row.api_key_id as string,
      endpoint: row.endpoint as string,
      status,
      count,
      ...errorsOf(status, count),
      buckets: numbers(row.latency_buckets as number[]),
      counts: numbers(row.latency_counts as (number | string)[]),
    };
  });
}
