import "server-only";
import { and, asc, desc, eq, gt, lte, lt, max, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { apiKeys, liveTailStreams, requestLog } from "@/db/schema";
import type { AuditLogFilters } from "@/core/request-log";
import type { Mode } from "@/core/enums";
import { AUDIT_ROW_COLUMNS, auditRowDto, keyOfRow, rowFilters, type AuditLogRowDto } from "./audit-log";
import { keyOfMode } from "./keys-of-mode";

// The live tail reads the request log in the order of its ids, which the log writer gives in
// commit order (db/queries/request-log-writer.ts): once id N is visible every smaller one is, so
// a cursor on the id neither misses a row nor sees one twice. (org_id, id) is indexed for it.

/** What a tail shows: one mode's requests (docs/features/test-mode.md#traffic), matching the audit log's row filters. */
export type TailFilters = Pick<AuditLogFilters, "endpoint" | "status" | "key" | "method" | "error"> & { mode: Mode };

const tailed = (orgId: string, filters: TailFilters) => [keyOfMode(requestLog.apiKeyId, { orgId, mode: filters.mode }), ...rowFilters(filters)];

/** The organization's newest row id: where a tail opened without a cursor starts. */
export async function tailHead(orgId: string, after = 0): Promise<number> {
  const [row] = await getDb()
    .select({ head: max(requestLog.id) })
    .from(requestLog)
    .where(and(eq(requestLog.orgId, orgId), gt(requestLog.id, after)));
  return row?.head ?? after;
}

/**
 * The rows after `after` up to `head`, both read by the caller in this order (the head first, so
 * every row up to it is committed), matching the filters, oldest first, at most `limit`.
 */
export async function tailRows(orgId: string, after: number, head: number, filters: TailFilters, limit: number): Promise<AuditLogRowDto[]> {
  const rows = await getDb()
    .select(AUDIT_ROW_COLUMNS)
    .from(requestLog)
    .leftJoin(apiKeys, keyOfRow)
    .where(and(eq(requestLog.orgId, orgId), gt(requestLog.id, after), lte(requestLog.id, head), ...tailed(orgId, filters)))
    .orderBy(asc(requestLog.id))
    .limit(limit);
  return rows.map(auditRowDto);
}

/**
 * Where a tail resuming after `after` starts so that it sends at most `keep` rows of its filters
 * (the screen keeps no more): `after` itself when that many or fewer wait, else just before the
 * `keep`-th newest. Reads at most `scan` entries of the index however long the tail was away.
 */
export async function resumeCursor(
  orgId: string,
  after: number,
  filters: TailFilters,
  keep: number,
  scan: number,
): Promise<{ cursor: number; skipped: boolean }> {
  const db = getDb();
  const [far] = await db
    .select({ id: requestLog.id })
    .from(requestLog)
    .where(and(eq(requestLog.orgId, orgId), gt(requestLog.id, after)))
    .orderBy(desc(requestLog.id))
    .offset(scan)
    .limit(1);
  const from = far?.id ?? after;
  const [oldestKept] = await db
    .select({ id: requestLog.id })
    .from(requestLog)
    .where(and(eq(requestLog.orgId, orgId), gt(requestLog.id, from), ...tailed(orgId, filters)))
    .orderBy(desc(requestLog.id))
    .offset(keep - 1)
    .limit(1);
  if (oldestKept) return { cursor: oldestKept.id - 1, skipped: true };
  return { cursor: from, skipped: from !== after };
}

/**
 * Opens a stream of the user's if they have fewer than `limit` open, across every process: their
 * user row's lock orders concurrent openings, and streams not touched within `staleMs` (their
 * process died) are cleared first.
 */
export async function claimStream(stream: { id: string; userId: string; orgId: string }, limit: number, staleMs: number): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`select 1 from users where id = ${stream.userId} for update`);
    await tx
      .delete(liveTailStreams)
      .where(and(eq(liveTailStreams.userId, stream.userId), lt(liveTailStreams.seenAt, sql`now() - ${staleMs}::int * interval '1 millisecond'`)));
    const [open] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(liveTailStreams)
      .where(eq(liveTailStreams.userId, stream.userId));
    if ((open?.count ?? 0) >= limit) return false;
    await tx.insert(liveTailStreams).values(stream);
    return true;
  });
}

/** Marks the stream as alive; false when its row is gone. */
export async function touchStream(streamId: string): Promise<boolean> {
  const touched = await getDb()
    .update(liveTailStreams)
    .set({ seenAt: sql`now()` })
    .where(eq(liveTailStreams.id, streamId))
    .returning({ id: liveTailStreams.id });
  return touched.length > 0;
}

export async function releaseStream(streamId: string): Promise<void> {
  await getDb().delete(liveTailStreams).where(eq(liveTailStreams.id, streamId));
}

/** Live-tail streams open across every process: those touched within `staleMs` (an older row's process died). */
export async function countOpenStreams(staleMs: number): Promise<number> {
  const [open] = await getDb()
    .select({ count: sql<number>`count(*)::int` })
    .from(liveTailStreams)
    .where(sql`${liveTailStreams.seenAt} >= now() - ${staleMs}::int * interval '1 millisecond'`);
  return open?.count ?? 0;
}
