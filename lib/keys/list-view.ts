import type { ApiKeyStatus } from "@/core/key-status";

const DAY_MS = 86_400_000;
const EXPIRING_WITHIN_DAYS = 7;
const UNUSED_FOR_DAYS = 30;

/** What the key list's filters and orders read of a key. */
export interface ListedKey {
  name: string;
  status: ApiKeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  requestsLast30Days: number;
}

/** The key list's status filter (`?status=`). "Unused" keys are active ones with no call for UNUSED_FOR_DAYS (never used: since creation). */
export const KEY_STATUS_FILTERS = {
  active: { label: "Active", matches: (key: ListedKey) => key.status === "active" },
  expiring: {
    label: `Expiring within ${EXPIRING_WITHIN_DAYS} days`,
    matches: (key: ListedKey, now: number) =>
      key.status === "active" && key.expiresAt !== null && Date.parse(key.expiresAt) - now <= EXPIRING_WITHIN_DAYS * DAY_MS,
  },
  expired: { label: "Expired", matches: (key: ListedKey) => key.status === "expired" },
  revoked: { label: "Revoked", matches: (key: ListedKey) => key.status === "revoked" },
  unused: {
    label: `Unused for ${UNUSED_FOR_DAYS} days`,
    matches: (key: ListedKey, now: number) => key.status === "active" && now - Date.parse(key.lastUsedAt ?? key.createdAt) >= UNUSED_FOR_DAYS * DAY_MS,
  },
  all: { label: "All keys", matches: () => true },
} satisfies Record<string, { label: string; matches: (key: ListedKey, now: number) => boolean }>;
export type KeyStatusFilter = keyof typeof KEY_STATUS_FILTERS;
export const DEFAULT_KEY_STATUS: KeyStatusFilter = "active";

/**
 * The key list's orders (`?sort=name`, `?sort=-created`): a value missing (never used, never
 * expires) sorts last either way. Text starts ascending, times and counts newest or largest first.
 */
export const KEY_SORTS = {
  name: { label: "Name", firstDescending: false, value: (key: ListedKey) => key.name },
  created: { label: "Created", firstDescending: true, value: (key: ListedKey) => Date.parse(key.createdAt) },
  lastUsed: { label: "Last used", firstDescending: true, value: (key: ListedKey) => (key.lastUsedAt === null ? null : Date.parse(key.lastUsedAt)) },
  expires: { label: "Expires", firstDescending: false, value: (key: ListedKey) => (key.expiresAt === null ? null : Date.parse(key.expiresAt)) },
  requests: { label: "Requests, 30 d", firstDescending: true, value: (key: ListedKey) => key.requestsLast30Days },
  status: { label: "Status", firstDescending: false, value: (key: ListedKey) => key.status },
} satisfies Record<string, { label: string; firstDescending: boolean; value: (key: ListedKey) => string | number | null }>;
export type KeySortColumn = keyof typeof KEY_SORTS;
export interface KeyOrder {
  column: KeySortColumn;
  descending: boolean;
}
export const DEFAULT_KEY_ORDER: KeyOrder = { column: "created", descending: true };

export interface KeyListView {
  status: KeyStatusFilter;
  order: KeyOrder;
}

const oneParam = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/** The view a URL's `?status=` and `?sort=` ask for; the defaults when absent or unknown. */
export function keyListView(params: { status?: string | string[]; sort?: string | string[] }): KeyListView {
  const status = oneParam(params.status);
  const sort = oneParam(params.sort) ?? "";
  const descending = sort.startsWith("-");
  const column = descending ? sort.slice(1) : sort;
  return {
    status: status !== undefined && Object.hasOwn(KEY_STATUS_FILTERS, status) ? (status as KeyStatusFilter) : DEFAULT_KEY_STATUS,
    order: Object.hasOwn(KEY_SORTS, column) ? { column: column as KeySortColumn, descending } : DEFAULT_KEY_ORDER,
  };
}

/** The query string of a view, leaving the defaults out (so the plain list's address stays plain). */
export function keyListQuery(view: KeyListView): string {
  const params = new URLSearchParams();
  if (view.status !== DEFAULT_KEY_STATUS) params.set("status", view.status);
  const { column, descending } = view.order;
  if (column !== DEFAULT_KEY_ORDER.column || descending !== DEFAULT_KEY_ORDER.descending) params.set("sort", `${descending ? "-" : ""}${column}`);
  return params.size > 0 ? `?${params}` : "";
}

/** The order a column's header leads to: its first direction, then the other, then back to the default order. */
export function nextKeyOrder(current: KeyOrder, column: KeySortColumn): KeyOrder {
  const { firstDescending } = KEY_SORTS[column];
  if (current.column !== column) return { column, descending: firstDescending };
  if (current.descending === firstDescending) return { column, descending: !firstDescending };
  return DEFAULT_KEY_ORDER;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function compareValues(a: string | number, b: string | number): number {
  return typeof a === "number" && typeof b === "number" ? a - b : collator.compare(String(a), String(b));
}

/** The keys a view shows, in its order; `now` is the moment the time-based filters compare with. */
export function keysInView<Key extends ListedKey>(keys: readonly Key[], view: KeyListView, now: number): Key[] {
  const { value } = KEY_SORTS[view.order.column];
  const sign = view.order.descending ? -1 : 1;
  return keys
    .filter((key) => KEY_STATUS_FILTERS[view.status].matches(key, now))
    .toSorted((a, b) => {
      const left = value(a);
      const right = value(b);
      if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
      return sign * compareValues(left, right);
    });
}
