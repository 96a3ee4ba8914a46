import { statusBounds } from "@/core/request-log";
import type { Books } from "@/core/enums";

/** What every read of the store's request log selects by: the books, the rows through the export's cursor, and the common filters. */
export interface StoredRequestFilters {
  from?: Date;
  to?: Date;
  keyId?: string;
  endpoint?: string;
  /** A status code ("404") or a class ("4xx"). */
  status?: string;
}

/**
 * The WHERE of a statement on the store's request log, with its query parameters: the books'
 * rows through request-log id `through` (the rest are read from PostgreSQL), and the filters;
 * `add` puts a statement's own conditions beside them.
 */
export function storedRequestConditions(books: Books, through: number, filters: StoredRequestFilters) {
  const conditions = ["org_id = {orgId:String}", "mode = {mode:String}", "id <= {through:UInt64}"];
  const params: Record<string, unknown> = { orgId: books.orgId, mode: books.mode, through };
  const add = (condition: string, values: Record<string, unknown>) => {
    conditions.push(condition);
    Object.assign(params, values);
  };
  if (filters.from) add("created_at >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')", { fromMs: filters.from.getTime() });
  if (filters.to) add("created_at < fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')", { toMs: filters.to.getTime() });
  if (filters.keyId) add("api_key_id = {keyId:String}", { keyId: filters.keyId });
  if (filters.endpoint) add("endpoint = {endpoint:String}", { endpoint: filters.endpoint });
  if (filters.status) {
    const { min, max } = statusBounds(filters.status);
    add("status BETWEEN {statusMin:UInt16} AND {statusMax:UInt16}", { statusMin: min, statusMax: max });
  }
  return { where: () => conditions.join(" AND "), params, add };
}
