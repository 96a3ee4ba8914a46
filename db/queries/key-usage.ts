import "server-only";
import { and, desc, eq, gte, lte } from "drizzle-orm";
import { getDb } from "@/db";
import { windowStartDay } from "@/db/queries/api-keys";
import { requestDailyRollup, requestLog } from "@/db/schema";
import { splitEndpoint, statusClassOf, type StatusClass } from "@/core/request-log";
import { utcDay, utcDayStart } from "@/core/time";

export type DailyUsageDto = { day: string; total: number } & Record<StatusClass, number>;

export interface StatusCountDto {
  status: number;
  count: number;
  /** Of the window's total, 0 to 1. */
  share: number;
}

export interface EndpointCountDto {
  endpoint: string;
  method: string;
  route: string;
  count: number;
  share: number;
}

export interface KeyUsageDto {
  /** First and last UTC day of the window, "YYYY-MM-DD", both included. */
  from: string;
  to: string;
  total: number;
  byClass: Record<StatusClass, number>;
  /** One entry per day of the window, oldest first, days without requests included. */
  daily: DailyUsageDto[];
  /** In order of code, lowest first: 200 above 404 above 500, as a reader scans them. */
  statuses: StatusCountDto[];
  /** Most accessed first. */
  endpoints: EndpointCountDto[];
}

export interface RecentCallDto {
  id: number;
  requestId: string;
  createdAt: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const noRequests = (): Record<StatusClass, number> => ({ "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 });

function ranked<K>(counts: Map<K, number>, total: number): { key: K; count: number; share: number }[] {
  return [...counts].map(([key, count]) => ({ key, count, share: total ? count / total : 0 })).sort((a, b) => b.count - a.count);
}

/**
 * The key's last 30 UTC days (today included), read from the daily rollup only: however busy
 * the key, this reads at most one row per day, endpoint and status.
 */
export async function getKeyUsage(orgId: string, keyId: string, now = new Date()): Promise<KeyUsageDto> {
  const from = windowStartDay(now);
  const to = utcDay(now);
  const rows = await getDb()
    .select({
      day: requestDailyRollup.day,
      endpoint: requestDailyRollup.endpoint,
      status: requestDailyRollup.status,
      count: requestDailyRollup.count,
    })
    .from(requestDailyRollup)
    .where(
      and(eq(requestDailyRollup.orgId, orgId), eq(requestDailyRollup.apiKeyId, keyId), gte(requestDailyRollup.day, from), lte(requestDailyRollup.day, to)),
    );

  const daily = new Map<string, DailyUsageDto>();
  for (let at = utcDayStart(from).getTime(); utcDay(new Date(at)) <= to; at += DAY_MS) {
    const day = utcDay(new Date(at));
    daily.set(day, { day, total: 0, ...noRequests() });
  }
  const statuses = new Map<number, number>();
  const endpoints = new Map<string, number>();
  const byClass = noRequests();
  let total = 0;
  for (const row of rows) {
    const { count } = row;
    total += count;
    const day = daily.get(row.day)!;
    day.total += count;
    const statusClass = statusClassOf(row.status);
    if (statusClass) {
      day[statusClass] += count;
      byClass[statusClass] += count;
    }
    statuses.set(row.status, (statuses.get(row.status) ?? 0) + count);
    endpoints.set(row.endpoint, (endpoints.get(row.endpoint) ?? 0) + count);
  }

  return {
    from,
    to,
    total,
    byClass,
    daily: [...daily.values()],
    statuses: ranked(statuses, total)
      .map(({ key, ...rest }) => ({ status: key, ...rest }))
      .sort((a, b) => a.status - b.status),
    endpoints: ranked(endpoints, total).map(({ key, ...rest }) => ({ endpoint: key, ...splitEndpoint(key), ...rest })),
  };
}

/** The key's latest calls within the 30-day window, from the request log itself, newest first. */
export async function listRecentCalls(orgId: string, keyId: string, options: { now?: Date; limit?: number } = {}): Promise<RecentCallDto[]> {
  const windowStart = utcDayStart(windowStartDay(options.now));
  const rows = await getDb()
    .select({
      id: requestLog.id,
      requestId: requestLog.requestId,
      createdAt: requestLog.createdAt,
      method: requestLog.method,
      path: requestLog.path,
      status: requestLog.status,
      durationMs: requestLog.durationMs,
    })
    .from(requestLog)
    .where(and(eq(requestLog.orgId, orgId), eq(requestLog.apiKeyId, keyId), gte(requestLog.createdAt, windowStart)))
    .orderBy(desc(requestLog.createdAt), desc(requestLog.id))
    .limit(options.limit ?? 50);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
