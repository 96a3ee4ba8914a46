import type { Books } from "@/core/enums";
import { apiUsageWindow } from "@/lib/usage/api-window";
import { decodeUsageCursor, encodeUsageCursor } from "@/lib/usage/cursor";
import { usageRows } from "@/lib/usage/rows";
import { USAGE_GROUPS, type UsageCursor } from "@/core/usage-query";
import type { UsageListDto, UsageQueryInput } from "../schemas/usage";
import { invalid } from "./refusals";

/** The window on its buckets' boundaries (lib/usage/api-window.ts), or the API's refusal of it. */
export function usageWindow(query: Pick<UsageQueryInput, "from" | "to" | "bucket">, now: Date): { from: Date; to: Date; bucket: "hour" | "day" } {
  const window = apiUsageWindow(query, now);
  if (!window.ok) throw invalid(window.field, window.message);
  return window.window;
}

function decodeCursor(cursor: string): UsageCursor {
  const after = decodeUsageCursor(cursor);
  if (after === null) throw invalid("query.starting_after", "Not a cursor this endpoint gave: pass a next_cursor back unchanged.");
  return after;
}

/** One page of the books' usage rows (docs/features/usage-analytics.md): the calling key's mode's traffic only. */
export async function usage(books: Books, query: UsageQueryInput, now = new Date()): Promise<UsageListDto> {
  const { from, to, bucket } = usageWindow(query, now);
  const requested = new Set(query.group_by?.split(","));
  const rows = await usageRows({
    ...books,
    from,
    to,
    bucket,
    groupBy: USAGE_GROUPS.filter((group) => requested.has(group)),
    keyId: query.key_id,
    endpoint: query.endpoint,
    status: query.status,
    limit: query.limit + 1,
    after: query.starting_after === undefined ? undefined : decodeCursor(query.starting_after),
  });
  const data = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    object: "list",
    data: data.map((row) => ({
      object: "usage_row",
      livemode: books.mode === "live",
      bucket_start: row.bucketStart,
      key_id: row.keyId,
      endpoint: row.endpoint,
      status: row.status,
      requests: row.requests,
      errors_4xx: row.errors4xx,
      errors_5xx: row.errors5xx,
      p50_ms: row.p50Ms,
      p95_ms: row.p95Ms,
      p99_ms: row.p99Ms,
    })),
    has_more: hasMore,
    next_cursor: hasMore ? encodeUsageCursor(data[data.length - 1]!) : null,
  };
}
