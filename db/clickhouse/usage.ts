import type { UsagePart } from "@/core/usage-part";
import type { RollupGrain } from "@/core/usage-grains";
import type { UsageQuery } from "@/core/usage-query";
import { clickhouse } from "./client";
import { storedRequestConditions } from "./conditions";

/**
 * A usage read from the analytics store's request log (docs/features/analytics-store.md#reads):
 * the rows of the window through request-log id `through`, summed per period and the query's
 * groups, each with the histogram of its latency buckets, the same buckets as PostgreSQL's
 * rollups, so lib/usage/aggregate.ts merges them and computes the same percentiles.
 */

const PERIOD_START: Record<RollupGrain, string> = {
  minute: "toStartOfMinute(created_at)",
  hour: "toStartOfHour(created_at)",
  day: "toStartOfDay(created_at)",
};

interface StoredPart {
  period_ms: number | string;
  group_key: string;
  group_endpoint: string;
  group_status: number;
  count: number | string;
  errors_4xx: number | string;
  errors_5xx: number | string;
  /** sumMap's answer: the buckets ascending, and the requests in each. */
  histogram: [number[], (number | string)[]];
}

export async function storedUsageParts(query: UsageQuery, from: Date, to: Date, through: number): Promise<UsagePart[]> {
  const { where, params, add } = storedRequestConditions(query, through, { from, to, keyId: query.keyId, endpoint: query.endpoint, status: query.status });
  if (query.method) add("startsWith(endpoint, {methodPrefix:String})", { methodPrefix: `${query.method} ` });
  const grouped = (group: "key" | "endpoint" | "status", column: string, none: string) => (query.groupBy.includes(group) ? column : none);
  const result = await clickhouse().query({
    query: `
      SELECT ${query.bucket === null ? "0" : `toUnixTimestamp(${PERIOD_START[query.bucket]}) * 1000`} AS period_ms,
             ${grouped("key", "api_key_id", "''")} AS group_key,
             ${grouped("endpoint", "toString(endpoint)", "''")} AS group_endpoint,
             ${grouped("status", "status", "0")} AS group_status,
             count() AS count,
             countIf(status BETWEEN 400 AND 499) AS errors_4xx,
             countIf(status BETWEEN 500 AND 599) AS errors_5xx,
             sumMap([latency_bucket], [toUInt64(1)]) AS histogram
      FROM request_log FINAL
      WHERE ${where()}
      GROUP BY period_ms, group_key, group_endpoint, group_status`,
    query_params: params,
    format: "JSONEachRow",
  });
  return (await result.json<StoredPart>()).map((row) => ({
    periodStart: Number(row.period_ms),
    keyId: row.group_key,
    endpoint: row.group_endpoint,
    status: Number(row.group_status),
    count: Number(row.count),
    errors4xx: Number(row.errors_4xx),
    errors5xx: Number(row.errors_5xx),
    buckets: row.histogram[0].map(Number),
    counts: row.histogram[1].map(Number),
  }));
}
