import type { PageRequest } from "@/db/queries/pagination";
import { notFound } from "./refusals";

/** The page a list request asks for: `limit` objects after the one `starting_after` names. */
interface PageQuery {
  limit: number;
  starting_after?: string;
}

/**
 * The `limit + 1` rows of the page `read` returns (db/queries/pagination.ts), or not found when
 * the cursor names no object of the organization.
 */
export async function readPage<Row>(query: PageQuery, read: (request: PageRequest) => Promise<Row[] | null>): Promise<Row[]> {
  const rows = await read({ limit: query.limit, startingAfter: query.starting_after });
  if (rows === null) throw notFound(query.starting_after!, "query.starting_after");
  return rows;
}

/** The list envelope from `limit + 1` rows: the extra row only says that another page exists. */
export function page<T extends { id: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { object: "list" as const, data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}
