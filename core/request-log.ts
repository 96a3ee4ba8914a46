import { utcDayStart } from "./time";

/**
 * What the columns of request_log mean and how a selection of its rows is described: shared by
 * the queries, the audit log's URL (lib/audit-filters.ts) and the charts.
 */

/** How long a failed request's bodies and error message are kept (docs/features/audit-log.md#request-details); its row stays 13 months. */
export const DETAIL_RETENTION_DAYS = 30;

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** "4xx" for 404; null for codes outside the four classes a response can have. */
export function statusClassOf(status: number): StatusClass | null {
  const name = `${Math.floor(status / 100)}xx`;
  return (STATUS_CLASSES as readonly string[]).includes(name) ? (name as StatusClass) : null;
}

/** Status codes a status filter selects, both ends included: `404` → 404–404, `4xx` → 400–499. */
export function statusBounds(status: string): { min: number; max: number } {
  if (status.endsWith("xx")) {
    const min = Number(status[0]) * 100;
    return { min, max: min + 99 };
  }
  return { min: Number(status), max: Number(status) };
}

/** "GET /v1/invoices/{id}" → method "GET", route "/v1/invoices/{id}". */
export function splitEndpoint(endpoint: string): { method: string; route: string } {
  const space = endpoint.indexOf(" ");
  return space < 0 ? { method: "", route: endpoint } : { method: endpoint.slice(0, space), route: endpoint.slice(space + 1) };
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** The preset time ranges, each reaching back from now. */
export const RANGE_PRESET_MS = { "1h": HOUR_MS, "24h": DAY_MS, "7d": 7 * DAY_MS, "30d": 30 * DAY_MS, "90d": 90 * DAY_MS } as const;
export type RangePreset = keyof typeof RANGE_PRESET_MS;

/** The Usage page's window when its URL names none (the audit log's is all time). */
export const DEFAULT_USAGE_RANGE: RangePreset = "24h";

/** A logged request's own columns, as the audit log shows them wherever the row was read from. */
export interface LoggedRequestColumns {
  id: number;
  requestId: string;
  keyId: string;
  method: string;
  path: string;
  endpoint: string;
  status: number;
  /** The API's error code of a refusal, null for a success. */
  errorCode: string | null;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
}

/** Position of a row in newest-first order: its time to the microsecond (as stored) and its id. */
export interface AuditCursor {
  at: string;
  id: number;
}

/** A selection of request-log rows, and optionally the page of it beyond a cursor. */
export interface AuditLogFilters {
  range?: RangePreset | "custom";
  /** UTC days, "YYYY-MM-DD", for the custom range. */
  from?: string;
  to?: string;
  endpoint?: string;
  /** "404" or "4xx". */
  status?: string;
  key?: string;
  method?: string;
  /** The API's error code of a refusal, e.g. "ip_not_allowed" (request_log.error_code). */
  error?: string;
  before?: AuditCursor;
  after?: AuditCursor;
}

/** The time window the filters select: `from` included, `to` excluded, either may be open. */
export function timeWindow(filters: AuditLogFilters, now: Date): { from?: Date; to?: Date } {
  if (filters.range === "custom") {
    return {
      from: filters.from ? utcDayStart(filters.from) : undefined,
      // The to date is a whole UTC day, included.
      to: filters.to ? new Date(utcDayStart(filters.to).getTime() + DAY_MS) : undefined,
    };
  }
  return filters.range ? { from: new Date(now.getTime() - RANGE_PRESET_MS[filters.range]) } : {};
}
