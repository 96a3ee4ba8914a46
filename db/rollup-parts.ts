import { sql } from "drizzle-orm";
import { errorsOf, type UsagePart } from "@/core/usage-aggregate";
import { rowsOf } from "./rows";

/** A rollup row's columns as a usage part needs them, after its `period_ms`. */
export const ROLLUP_PART_COLUMNS = sql.raw("api_key_id, endpoint, status, count, latency_buckets, latency_counts");

/** Array columns as the drivers give them: numbers (PGlite) or the digits of a bigint (postgres.js). */
const numbers = (values: readonly (number | string)[]): number[] => (typeof values[0] === "number" ? (values as number[]) : values.map(Number));

/** Rows of `period_ms` and ROLLUP_PART_COLUMNS as usage parts (core/usage-aggregate.ts). */
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
