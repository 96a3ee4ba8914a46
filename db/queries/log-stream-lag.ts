import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";
import type { Mode } from "@/core/enums";
import type { LogStreamSource } from "@/core/log-streams";
import { requestOfMode } from "./log-stream-events";

/** Waiting events are counted up to this many; past it the page says "more than". */
export const LAG_COUNT_CAP = 10_000;

export interface StreamPosition {
  orgId: string;
  mode: Mode;
  sources: LogStreamSource[];
  requestsAfter: number;
  activityAfterTx: string;
  activityAfterId: number;
  alertsAfterTx: string;
  alertsAfterId: number;
}

/** How far behind a stream is: its oldest undelivered event, and how many wait (at most LAG_COUNT_CAP + 1). */
export interface StreamLag {
  oldestAt: Date | null;
  waiting: number;
}

/**
 * The events after a stream's cursors, per source it carries, each read in its delivery order and
 * only as far as the cap, so a deep backlog costs the page no more than a short one.
 */
export async function streamLag(db: DbOrTx, stream: StreamPosition): Promise<StreamLag> {
  const { orgId } = stream;
  const cap = LAG_COUNT_CAP + 1;
  const parts: SQL[] = [];
  if (stream.sources.includes("requests"))
    parts.push(sql`(select r.created_at from request_log r
      where r.org_id = ${orgId} and r.id > ${stream.requestsAfter} and ${requestOfMode("r", stream.mode)} order by r.id limit ${cap})`);
  if (stream.sources.includes("activity"))
    parts.push(sql`(select created_at from activity_log
      where org_id = ${orgId} and (tx, id) > (${stream.activityAfterTx}::xid8, ${stream.activityAfterId}) order by tx, id limit ${cap})`);
  if (stream.sources.includes("alerts"))
    parts.push(sql`(select created_at from alerts
      where org_id = ${orgId} and (tx, id) > (${stream.alertsAfterTx}::xid8, ${stream.alertsAfterId}) order by tx, id limit ${cap})`);
  if (parts.length === 0) return { oldestAt: null, waiting: 0 };
  const [row] = rowsOf<{ oldest_at: string | Date | null; waiting: number }>(
    await db.execute(sql`select min(created_at) as oldest_at, count(*)::int as waiting from (${sql.join(parts, sql` union all `)}) waiting`),
  );
  return { oldestAt: row?.oldest_at ? new Date(row.oldest_at) : null, waiting: Math.min(row?.waiting ?? 0, cap) };
}
