/**
 * A usage part: what every usage read is merged from (lib/usage/aggregate.ts), whether it came
 * from a rollup row (db/rollups/tables.ts) or a snapshot document (lib/usage/snapshot-document.ts).
 */

/** The requests of `count` answered 4xx and 5xx, for a part of one status. */
export function errorsOf(status: number, count: number): Pick<UsagePart, "errors4xx" | "errors5xx"> {
  return { errors4xx: status >= 400 && status <= 499 ? count : 0, errors5xx: status >= 500 && status <= 599 ? count : 0 };
}

/** One rollup row as read: the requests of one key, endpoint and status in one period, with their latency histogram. */
export interface UsagePart {
  /** The period's first instant in epoch milliseconds; ignored by a whole-window query. */
  periodStart: number;
  keyId: string;
  endpoint: string;
  /** The status, or 0 for a part that sums every status (a snapshot level without them). */
  status: number;
  count: number;
  /** Of `count`, the requests answered 4xx and 5xx. */
  errors4xx: number;
  errors5xx: number;
  /** Histogram buckets ascending (core/latency-histogram.ts) and the requests in each. */
  buckets: readonly number[];
  counts: readonly number[];
}
