import { z } from "zod";
import { RANGE_PRESET_MS, statusBounds, type AuditCursor, type AuditLogFilters, type RangePreset } from "@/core/request-log";
import { API_ERRORS } from "./api/errors";
import { boundedDate, boundedString, dateRangeProblem } from "./input-rules";
import { REFUSALS } from "./log-filter-labels";
import { MODE_VALUES, type Mode } from "@/core/enums";
import { withMode } from "./view-mode";

// The range presets' names, for the server pages that say which range they show.
export { RANGE_PRESETS } from "./log-filter-labels";

const REFUSAL_CODES = Object.keys(REFUSALS) as [keyof typeof REFUSALS, ...(keyof typeof REFUSALS)[]];

/** Whether a status filter ("403" or "4xx") takes this status. */
function statusMatches(filter: string, status: number): boolean {
  const { min, max } = statusBounds(filter);
  return status >= min && status <= max;
}

/**
 * The audit log's URL: one schema read by the page, the CSV export and the queries, so a shared
 * link, its export and its pages always select the same rows.
 */

const RANGES = [...(Object.keys(RANGE_PRESET_MS) as RangePreset[]), "custom"] as const;

const CURSOR = /^((\d{4}-\d\d-\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z)_(\d{1,15})$/;
const cursorDay = boundedDate();

export function encodeCursor(cursor: AuditCursor): string {
  return `${cursor.at}_${cursor.id}`;
}

export const cursorParam = z
  .string()
  .max(64, { abort: true })
  .regex(CURSOR, "This page link is out of date. Go back to the newest requests.")
  // The time is handed to PostgreSQL as it is: a day it would refuse must not reach it.
  .refine((value) => cursorDay.safeParse(CURSOR.exec(value)?.[2]).success, "This page link is out of date. Go back to the newest requests.")
  .transform((value): AuditCursor => {
    const [, at, , , id] = CURSOR.exec(value)!;
    return { at: at!, id: Number(id) };
  });

const dayParam = boundedDate();

/** The date range and page position of a newest-first log's URL: the audit log's and the activity history's. */
export const rangeAndPageFields = {
  range: z.enum(RANGES, `Choose a date range: ${RANGES.slice(0, -1).join(", ")} or custom.`).optional(),
  from: dayParam.optional(),
  to: dayParam.optional(),
  before: cursorParam.optional(),
  after: cursorParam.optional(),
};

/** The rules between those fields: a custom range needs a date, a day range must be in order, one direction per link. */
export function checkRangeAndPage(value: { range?: string; from?: string; to?: string; before?: unknown; after?: unknown }, ctx: z.RefinementCtx): void {
  const custom = value.range === "custom";
  if (!custom && (value.from || value.to)) {
    ctx.addIssue({ code: "custom", path: ["range"], message: "A from or to date needs the custom date range." });
  }
  if (custom && !value.from && !value.to) ctx.addIssue({ code: "custom", path: ["from"], message: "Choose a from or to date for the custom range." });
  const rangeProblem = dateRangeProblem(value.from, value.to);
  if (rangeProblem) ctx.addIssue({ code: "custom", path: ["to"], message: rangeProblem });
  if (value.before && value.after) ctx.addIssue({ code: "custom", path: ["after"], message: "A page link cannot go both older and newer." });
}

/** What selects requests by their key, endpoint, method and status: the audit log's URL and the Usage page's (lib/usage/filters.ts). */
export const requestFilterFields = {
  // Live or test traffic (lib/view-mode.ts): not a filter to clear, but chosen by the same URL.
  mode: z.enum(MODE_VALUES, { error: "Choose live or test mode." }).optional(),
  endpoint: boundedString(300, "That endpoint is too long.").trim().min(1).optional(),
  status: z
    .string()
    .regex(/^[1-5](\d\d|xx)$/i, "Use a status code such as 404 or a class such as 4xx.")
    .transform((value) => value.toLowerCase())
    .optional(),
  key: boundedString(100, "That key id is too long.").trim().min(1).optional(),
  method: z
    .string()
    .regex(/^[A-Za-z]{1,16}$/, "Use an HTTP method such as GET or POST.")
    .transform((value) => value.toUpperCase())
    .optional(),
};

const auditFiltersSchema = z
  .object({
    ...rangeAndPageFields,
    ...requestFilterFields,
    error: z.enum(REFUSAL_CODES, `Choose a refusal: ${REFUSAL_CODES.join(", ")}.`).optional(),
  })
  .superRefine(checkRangeAndPage)
  .superRefine((value, ctx) => {
    // A refusal has one status; a status filter that contradicts it would select nothing.
    if (value.error && value.status && !statusMatches(value.status, API_ERRORS[value.error].status)) {
      ctx.addIssue({
        code: "custom",
        path: ["status"],
        message: `A refusal of kind ${value.error} is always a ${API_ERRORS[value.error].status}: choose that status, or any.`,
      });
    }
  })
  // The refusal's status narrows the daily rollups the page reads (db/queries/audit-log.ts) and says what it is.
  .transform((value) => (value.error && !value.status ? { ...value, status: String(API_ERRORS[value.error].status) } : value));

/** What the URL selects; a type error here means the queries cannot take what the URL holds. */
type FitsTheQueries<T extends AuditLogFilters> = T;
export type AuditFilters = FitsTheQueries<z.output<typeof auditFiltersSchema>>;
type AuditFilterParam = keyof z.input<typeof auditFiltersSchema>;

/** The parameters that narrow the rows; the mode chooses whose they are, the cursors only a page of them. */
const FILTER_PARAMS = ["range", "from", "to", "endpoint", "status", "key", "method", "error"] as const satisfies readonly AuditFilterParam[];
const URL_PARAMS = ["mode", ...FILTER_PARAMS] as const satisfies readonly AuditFilterParam[];

export type SearchParamsInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** A URL's parameters as a schema reads them: empty ones count as absent, a repeated one counts once. */
export function searchParamsRecord(params: SearchParamsInput): Record<string, string> {
  const raw: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [name, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first && !(name in raw)) raw[name] = first;
  }
  return raw;
}

export function parseAuditFilters(params: SearchParamsInput) {
  return auditFiltersSchema.safeParse(searchParamsRecord(params));
}

/** The one message to show for an invalid URL. */
export function filtersError(error: z.ZodError): string {
  return error.issues[0]?.message ?? "These filters are not valid.";
}

/** Filters (and optionally a cursor) as URL parameters, in the stable order of `names`. */
export function filterSearchParams<F extends Partial<Record<string, unknown>>>(
  names: readonly (keyof F & string)[],
  filters: F,
  cursor?: { before?: AuditCursor; after?: AuditCursor },
): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of names) {
    const value = filters[name];
    if (typeof value === "string" && value) params.set(name, value);
  }
  if (cursor?.before) params.set("before", encodeCursor(cursor.before));
  if (cursor?.after) params.set("after", encodeCursor(cursor.after));
  return params;
}

export function auditSearchParams(filters: AuditFilters, cursor?: { before?: AuditCursor; after?: AuditCursor }): URLSearchParams {
  return filterSearchParams(URL_PARAMS, filters, cursor);
}

export function hasFilters(filters: AuditFilters): boolean {
  return FILTER_PARAMS.some((name) => Boolean(filters[name]));
}

/**
 * A request's details page (docs/features/audit-log.md#request-details), which every audit-log row and a key's last calls link to,
 * in the request's own mode (docs/features/test-mode.md#traffic).
 */
export function requestHref(orgSlug: string, requestId: string, mode: Mode | null): string {
  return withMode(`/${orgSlug}/settings/api/audit/${requestId}`, mode ?? "live");
}
