import "server-only";
import type { Books } from "@/core/enums";
import { listKeyNames, type KeyNameDto } from "@/db/queries/api-keys";
import { usageRows } from "./rows";
import { utcDayStart } from "@/core/time";
import { ceilToGrain, ROLLUP_GRAIN_MS } from "@/core/usage-grains";
import type { UsageQuery, UsageRow } from "@/core/usage-query";
import { BREAKDOWN_NAMES, BREAKDOWNS, type Breakdown } from "./breakdowns";
import { chartWindow, type UsageFilters, type UsageWindow } from "./filters";

/**
 * What the Usage page shows for one window and set of filters (docs/features/usage-analytics.md), read through the one
 * analytics module (lib/usage/rows.ts): the totals, the series of the chart and the three
 * breakdowns, as plain rows a client component can take.
 */

/** A window's or a group's totals: the read contract's counts and percentiles. */
export type UsageTotalsDto = Pick<UsageRow, "requests" | "errors4xx" | "errors5xx" | "p50Ms" | "p95Ms" | "p99Ms">;

export interface UsagePointDto extends UsageTotalsDto {
  bucketStart: string;
  /** Requests answered 2xx or 3xx: the rest of the bar. */
  success: number;
}

export interface BreakdownRowDto extends UsageTotalsDto {
  /** The row's group, stable across renders: key id, endpoint, or both. */
  id: string;
  keyId: string | null;
  keyName: string | null;
  keyHint: string | null;
  keyRevoked: boolean;
  endpoint: string | null;
  /** Fractions of the window's requests, and of the row's own. */
  share: number;
  rate4xx: number;
  rate5xx: number;
}

export interface UsageReportDto {
  window: { from: string; to: string; bucket: UsageWindow["bucket"]; open: boolean };
  totals: UsageTotalsDto;
  series: UsagePointDto[];
  breakdowns: Record<Breakdown, BreakdownRowDto[]>;
  /** Every key of the organization, revoked ones too: names for the rows and choices for the filter. */
  keys: KeyNameDto[];
}

/** The query of a window's totals: an open window is read to the end of its day, so today comes from its daily rows and not from hours and minutes. */
function queryOf(books: Books, filters: UsageFilters, window: UsageWindow): Omit<UsageQuery, "bucket" | "groupBy"> {
  const to = window.open ? new Date(ceilToGrain(window.to.getTime(), "day")) : window.to;
  return { ...books, from: window.from, to, keyId: filters.key, endpoint: filters.endpoint, method: filters.method, status: filters.status };
}

const totalsOf = (row: UsageRow | undefined): UsageTotalsDto => ({
  requests: row?.requests ?? 0,
  errors4xx: row?.errors4xx ?? 0,
  errors5xx: row?.errors5xx ?? 0,
  p50Ms: row?.p50Ms ?? null,
  p95Ms: row?.p95Ms ?? null,
  p99Ms: row?.p99Ms ?? null,
});

type KeyNames = Map<string, KeyNameDto>;

const byId = (keys: KeyNameDto[]): KeyNames => new Map(keys.map((key) => [key.id, key]));

function breakdownRows(rows: UsageRow[], total: number, names: KeyNames): BreakdownRowDto[] {
  return rows
    .map((row) => {
      const key = row.keyId ? names.get(row.keyId) : undefined;
      return {
        ...totalsOf(row),
        id: [row.keyId, row.endpoint].filter((part) => part !== null).join(" "),
        keyId: row.keyId,
        keyName: key?.name ?? null,
        keyHint: key?.hint ?? null,
        keyRevoked: key?.revoked ?? false,
        endpoint: row.endpoint,
        share: total > 0 ? row.requests / total : 0,
        rate4xx: row.requests > 0 ? row.errors4xx / row.requests : 0,
        rate5xx: row.requests > 0 ? row.errors5xx / row.requests : 0,
      };
    })
    .sort((a, b) => b.requests - a.requests || a.id.localeCompare(b.id));
}

/** One breakdown's rows over the window, busiest first: a table of the page, and its CSV. */
export async function usageBreakdown(books: Books, filters: UsageFilters, window: UsageWindow, breakdown: Breakdown): Promise<BreakdownRowDto[]> {
  const [rows, keys] = await Promise.all([usageRows(reportQueries(books, filters, window)[breakdown]), listKeyNames(books.orgId, books.mode)]);
  // Each request is in exactly one group: the groups' requests add up to the window's.
  const total = rows.reduce((sum, row) => sum + row.requests, 0);
  return breakdownRows(rows, total, byId(keys));
}

/** A point per period of the chart's window, quiet periods included (as zero requests, no latency). */
function fullSeries(rows: UsageRow[], window: UsageWindow): UsagePointDto[] {
  const chart = chartWindow(window);
  const byStart = new Map(rows.map((row) => [row.bucketStart, row]));
  const step = ROLLUP_GRAIN_MS[window.bucket];
  const points: UsagePointDto[] = [];
  for (let at = chart.from.getTime(); at < chart.to.getTime(); at += step) {
    const bucketStart = new Date(at).toISOString();
    const totals = totalsOf(byStart.get(bucketStart));
    points.push({ ...totals, bucketStart, success: totals.requests - totals.errors4xx - totals.errors5xx });
  }
  return points;
}

/** The queries the Usage page runs for a window and filters, by what they answer: the bench times each of them. */
export function reportQueries(books: Books, filters: UsageFilters, window: UsageWindow): Record<"totals" | "series" | Breakdown, UsageQuery> {
  const query = queryOf(books, filters, window);
  const breakdown = (name: Breakdown): UsageQuery => ({ ...query, bucket: null, groupBy: BREAKDOWNS[name].groupBy });
  return {
    totals: { ...query, bucket: null, groupBy: [] },
    series: { ...query, ...chartWindow(window), bucket: window.bucket, groupBy: [] },
    key: breakdown("key"),
    endpoint: breakdown("endpoint"),
    "key-endpoint": breakdown("key-endpoint"),
  };
}

export async function usageReport(books: Books, filters: UsageFilters, window: UsageWindow): Promise<UsageReportDto> {
  const queries = reportQueries(books, filters, window);
  const [[whole], series, tables, keys] = await Promise.all([
    usageRows(queries.totals),
    usageRows(queries.series),
    Promise.all(BREAKDOWN_NAMES.map(async (name) => [name, await usageRows(queries[name])] as const)),
    listKeyNames(books.orgId, books.mode),
  ]);
  const names = byId(keys);
  const totals = totalsOf(whole);
  return {
    window: { from: window.from.toISOString(), to: window.to.toISOString(), bucket: window.bucket, open: window.open },
    totals,
    series: fullSeries(series, window),
    breakdowns: Object.fromEntries(tables.map(([name, rows]) => [name, breakdownRows(rows, totals.requests, names)])) as Record<Breakdown, BreakdownRowDto[]>,
    keys,
  };
}

export interface KeyLatencyDto {
  /** A point per UTC day of the key page's window. */
  daily: UsagePointDto[];
  /** Percentiles per endpoint over the whole window. */
  endpoints: Record<string, Pick<UsageTotalsDto, "p50Ms" | "p95Ms" | "p99Ms">>;
}

/** The key page's latency panel: p50/p95/p99 per day and per endpoint over whole UTC days `fromDay`–`toDay`; `books` are the key's own. */
export async function keyLatency(books: Books, keyId: string, fromDay: string, toDay: string): Promise<KeyLatencyDto> {
  const window: UsageWindow = { from: utcDayStart(fromDay), to: new Date(utcDayStart(toDay).getTime() + ROLLUP_GRAIN_MS.day), bucket: "day", open: false };
  const query = { ...books, keyId, from: window.from, to: window.to };
  const [daily, endpoints] = await Promise.all([
    usageRows({ ...query, bucket: "day", groupBy: [] }),
    usageRows({ ...query, bucket: null, groupBy: ["endpoint"] }),
  ]);
  return {
    daily: fullSeries(daily, window),
    endpoints: Object.fromEntries(endpoints.map((row) => [row.endpoint!, { p50Ms: row.p50Ms, p95Ms: row.p95Ms, p99Ms: row.p99Ms }])),
  };
}
