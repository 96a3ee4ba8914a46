import type { BreakdownRowDto } from "@/lib/usage/report";
import { BREAKDOWN_NAMES, type Breakdown } from "@/lib/usage/breakdowns";

/**
 * Which breakdown table of the Usage page is open, its order and its page, in the page's URL
 * (`table`, `sort`, `order`, `page`): the rows are sorted and cut on the server, so only the 25
 * shown travel to the browser (docs/decisions/0064-charts-load-when-seen.md). A filter change
 * starts again from the first page in the default order.
 */

export const BREAKDOWN_PAGE_SIZE = 25;

export const SORT_COLUMNS = ["name", "requests", "share", "rate4xx", "rate5xx", "p50Ms", "p95Ms", "p99Ms"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortOrder = "asc" | "desc";

export interface TableView {
  table: Breakdown;
  sort: SortColumn;
  order: SortOrder;
  /** From 1. */
  page: number;
}

export const DEFAULT_TABLE_VIEW: TableView = { table: "key", sort: "requests", order: "desc", page: 1 };

/** The order a column takes on its first click: names from A, numbers from the largest. */
export const firstOrder = (column: SortColumn): SortOrder => (column === "name" ? "asc" : "desc");

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const oneOf = <T extends string>(values: readonly T[], value: string | undefined): T | undefined => values.find((candidate) => candidate === value);

/** The view the URL names; a part it does not name, or names wrongly, is the default's (a stale link still opens the page). */
export function parseTableView(params: Record<string, string | string[] | undefined>): TableView {
  const page = Number(one(params.page));
  return {
    table: oneOf(BREAKDOWN_NAMES, one(params.table)) ?? DEFAULT_TABLE_VIEW.table,
    sort: oneOf(SORT_COLUMNS, one(params.sort)) ?? DEFAULT_TABLE_VIEW.sort,
    order: oneOf(["asc", "desc"] as const, one(params.order)) ?? DEFAULT_TABLE_VIEW.order,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL parameters of a view, the defaults left out, to add to the page's filters. */
export function tableViewParams(view: TableView): [string, string][] {
  const params: [string, string][] = [];
  if (view.table !== DEFAULT_TABLE_VIEW.table) params.push(["table", view.table]);
  if (view.sort !== DEFAULT_TABLE_VIEW.sort || view.order !== DEFAULT_TABLE_VIEW.order) params.push(["sort", view.sort], ["order", view.order]);
  if (view.page > 1) params.push(["page", String(view.page)]);
  return params;
}

/** What a row is, in words: the key's name, the endpoint, or both. */
export const rowName = (row: BreakdownRowDto) =>
  [row.keyId === null ? null : (row.keyName ?? "Deleted key"), row.endpoint].filter((part) => part !== null).join(" · ");

const byName = new Intl.Collator("en-US", { numeric: true, sensitivity: "base" });

function compare(column: SortColumn, a: BreakdownRowDto, b: BreakdownRowDto): number {
  if (column === "name") return byName.compare(rowName(a), rowName(b));
  return (a[column] ?? 0) - (b[column] ?? 0);
}

/**
 * One page of a table's rows in the view's order, and how many pages there are (a page beyond
 * the last shows the last). Rows without a latency come last either way; equal rows keep the
 * report's order, busiest first.
 */
export function pageOfRows(
  rows: BreakdownRowDto[],
  sort: SortColumn,
  order: SortOrder,
  page: number,
): { rows: BreakdownRowDto[]; page: number; pages: number } {
  const sign = order === "asc" ? 1 : -1;
  const missing = (row: BreakdownRowDto) => sort !== "name" && row[sort] === null;
  const sorted = [...rows].sort((a, b) => Number(missing(a)) - Number(missing(b)) || sign * compare(sort, a, b));
  const pages = Math.max(1, Math.ceil(sorted.length / BREAKDOWN_PAGE_SIZE));
  const shown = Math.min(page, pages);
  return { rows: sorted.slice((shown - 1) * BREAKDOWN_PAGE_SIZE, shown * BREAKDOWN_PAGE_SIZE), page: shown, pages };
}
