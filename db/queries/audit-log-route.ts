import "server-only";
import { and, asc, between, desc, eq, gte, like, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { requestDailyRollup } from "@/db/schema";
import { utcDay } from "@/core/time";
import { statusBounds, timeWindow, type AuditCursor, type AuditLogFilters } from "@/core/request-log";
import { ofMode, type TrafficScope } from "./keys-of-mode";

/*
 * Which way the audit log reads a slice of its rows (db/queries/audit-log.ts), chosen from the
 * daily rollups: in time order, or per matching (key, endpoint, status).
 */

export interface Slice {
  direction: "older" | "newer";
  cursor?: AuditCursor;
  limit: number;
  /** Chosen from the rollups unless given (tests and the bench compare both). */
  route?: Route;
}

/**
 * Rows a page may read in time order, skipping the ones its filters refuse, before reading each
 * matching (key, endpoint, status) on its own is cheaper. Reading 20,000 rows of the primary key
 * costs a few milliseconds; a combination costs one descent of request_log_org_combination_time_idx.
 */
const TIME_ORDER_BUDGET_ROWS = 20_000;

/**
 * How a slice is read. "time-order": the rows in time order with the filters applied to each,
 * fast when matches are dense. "by-combination": each (key, endpoint, status) the filters match,
 * listed from the daily rollups, read on its own index range and merged, so a sparse combination
 * such as one key's 503s costs what its own rows cost, however long the log is.
 */
export type Route = "time-order" | "by-combination";

const dayOf = (at: string) => at.slice(0, 10);

/** The organization's rollup rows of the filters' window and of the slice's side of its cursor (days include their whole day), both modes. */
export function rollupDays(orgId: string, filters: AuditLogFilters, now: Date, slice: Slice): SQL[] {
  const conditions: SQL[] = [eq(requestDailyRollup.orgId, orgId)];
  const window = timeWindow(filters, now);
  if (window.from) conditions.push(gte(requestDailyRollup.day, utcDay(window.from)));
  if (window.to) conditions.push(lte(requestDailyRollup.day, utcDay(new Date(window.to.getTime() - 1))));
  if (slice.cursor) {
    const day = dayOf(slice.cursor.at);
    conditions.push(slice.direction === "older" ? lte(requestDailyRollup.day, day) : gte(requestDailyRollup.day, day));
  }
  return conditions;
}

/** The filters on a rollup row's columns: the same conditions as the audit log's filters (db/queries/audit-log.ts). */
function rollupFilters(filters: AuditLogFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.key) conditions.push(eq(requestDailyRollup.apiKeyId, filters.key));
  if (filters.endpoint) conditions.push(eq(requestDailyRollup.endpoint, filters.endpoint));
  if (filters.status) {
    const { min, max } = statusBounds(filters.status);
    conditions.push(between(requestDailyRollup.status, min, max));
  }
  // An endpoint is "METHOD /route" with the request's own method (lib/api/gateway.ts, endpointOf).
  if (filters.method) conditions.push(like(requestDailyRollup.endpoint, `${filters.method} %`));
  return conditions;
}

/** The rollup rows counting requests the page selects: its mode's (docs/features/test-mode.md#traffic), matching its filters; undefined: all. */
export function rollupMatches(scope: TrafficScope, filters: AuditLogFilters): SQL | undefined {
  return and(ofMode(requestDailyRollup.apiKeyId, scope), ...rollupFilters(filters));
}

/**
 * How many rows a time-ordered read passes before it has `limit` matches, from the days it walks
 * in order (each day's rows and matching rows). Matches are taken as evenly spread within a day:
 * of the day that completes the page, only the share needed for the missing matches is passed.
 */
export function rowsPassedInTimeOrder(days: { total: number; matching: number }[], limit: number): number {
  let passed = 0;
  let missing = limit;
  for (const day of days) {
    if (day.matching >= missing) return passed + day.total * (missing / day.matching);
    passed += day.total;
    missing -= day.matching;
  }
  return passed;
}

/**
 * Chooses the route from the daily rollups: walking the days from the cursor in the slice's
 * direction, how many rows would a time-ordered read pass before it has `limit` matches?
 */
export async function chooseRoute(scope: TrafficScope, filters: AuditLogFilters, now: Date, slice: Slice): Promise<Route> {
  const matches = rollupMatches(scope, filters);
  // Every row of the organization matches: nothing to skip.
  if (!matches) return "time-order";
  const days = await getDb()
    .select({
      day: requestDailyRollup.day,
      total: sql<number>`sum(${requestDailyRollup.count})::float8`.mapWith(Number),
      matching: sql<number>`coalesce(sum(${requestDailyRollup.count}) filter (where ${matches}), 0)::float8`.mapWith(Number),
    })
    .from(requestDailyRollup)
    .where(and(...rollupDays(scope.books.orgId, filters, now, slice)))
    .groupBy(requestDailyRollup.day)
    .orderBy(slice.direction === "older" ? desc(requestDailyRollup.day) : asc(requestDailyRollup.day));
  return rowsPassedInTimeOrder(days, slice.limit) <= TIME_ORDER_BUDGET_ROWS ? "time-order" : "by-combination";
}
