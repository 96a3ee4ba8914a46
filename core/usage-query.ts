import type { Mode } from "./enums";
import type { RollupGrain } from "./usage-grains";

/**
 * The analytics read contract: what the Usage page, the key page's latency panel and
 * GET /v1/usage ask of the traffic, and the rows they get. Anything that can sum counts and merge
 * latency histograms over (time, key, endpoint, status) can serve it: the rollups of one
 * PostgreSQL today (db/queries/usage.ts), a columnar engine's tables when one is outgrown.
 */

export const USAGE_GROUPS = ["key", "endpoint", "status"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageQuery {
  orgId: string;
  /** Live or test traffic: a request's mode is its key's (docs/features/test-mode.md#traffic). */
  mode: Mode;
  /** The window, `from` included and `to` excluded, both on a minute's boundary. */
  from: Date;
  to: Date;
  /** A row per period of this grain (periods on its boundaries), or one for the whole window. */
  bucket: RollupGrain | null;
  groupBy: readonly UsageGroup[];
  keyId?: string;
  /** A route template with its method, "GET /v1/invoices/{id}". */
  endpoint?: string;
  method?: string;
  /** A status code ("404") or a class ("4xx"). */
  status?: string;
  /** A page of the rows: at most `limit`, those after the row `after` names. */
  limit?: number;
  after?: UsageCursor;
}

/** A row's place in the order of the rows: its bucket's start, then its group's values. */
export interface UsageCursor {
  bucketStart: string;
  keyId: string | null;
  endpoint: string | null;
  status: number | null;
}

export interface UsageRow {
  /** The period's first instant (ISO 8601), or the window's `from` for a whole-window row. */
  bucketStart: string;
  /** The group's values; null where the query does not group by them. */
  keyId: string | null;
  endpoint: string | null;
  status: number | null;
  requests: number;
  errors4xx: number;
  errors5xx: number;
  /**
   * Latency percentiles in milliseconds, within LATENCY_RELATIVE_ERROR of the exact ones
   * (core/latency-histogram.ts), rounded to 0.01 ms; null if the rows hold no durations.
   */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}
