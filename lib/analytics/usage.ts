import "server-only";
import { getDb } from "@/db";
import { storedUsageParts } from "@/db/clickhouse/usage";
import { exportedThrough } from "@/db/queries/analytics-export";
import { unexportedParts } from "@/db/queries/usage";
import type { UsagePart } from "@/core/usage-part";
import type { UsageQuery } from "@/core/usage-query";

/**
 * A usage read when the analytics store is configured (docs/features/analytics-store.md#reads):
 * the rows the store holds, through the export's cursor, from the store; the rows after it from
 * PostgreSQL's log. Each row is read from exactly one side, so the counts are the log's, to the
 * request answered a moment ago, however far the export lags.
 */
export async function analyticsStoreParts(query: UsageQuery, from: Date, to: Date): Promise<UsagePart[]> {
  const through = await exportedThrough(getDb());
  const [stored, recent] = await Promise.all([storedUsageParts(query, from, to, through), unexportedParts(query, from, to, through)]);
  return stored.concat(recent);
}
