import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db";
import { storedAuditSlice } from "@/db/clickhouse/audit-log";
import { apiKeys } from "@/db/schema";
import type { AuditLogFilters, LoggedRequestColumns } from "@/core/request-log";
import type { Slice } from "./audit-log-route";
import type { Mode } from "@/core/enums";
import { exportedThrough } from "./analytics-export";
import type { TrafficScope } from "./keys-of-mode";

/** An audit-log row as a slice reads it (db/queries/audit-log.ts): the request's columns, its key's, and its cursor time. */
export interface SliceRow extends LoggedRequestColumns {
  cursorAt: string;
  createdAt: Date;
  keyName: string | null;
  keyHint: string | null;
  keyRevokedAt: Date | null;
  keyMode: Mode | null;
}

/**
 * A slice of the audit log when the analytics store is configured (docs/features/analytics-store.md#reads):
 * the rows through the export's cursor from the store, those after it from PostgreSQL, each side
 * read up to the slice's limit and the two merged in walking order. Each row comes from one side,
 * so pages hold the same rows, in the same order, as PostgreSQL alone gives. `recent` reads
 * PostgreSQL's side: the slice of the rows after a request-log id.
 */
export async function sliceAcrossStores(
  scope: TrafficScope,
  filters: AuditLogFilters,
  now: Date,
  slice: Slice,
  recent: (afterId: number) => Promise<SliceRow[]>,
): Promise<SliceRow[]> {
  const through = await exportedThrough(getDb());
  const [unexported, stored] = await Promise.all([recent(through), storedAuditSlice(scope.books, filters, now, slice, through)]);
  const keyIds = [...new Set(stored.map((row) => row.keyId))];
  const keys = new Map(
    (keyIds.length === 0
      ? []
      : await getDb()
          .select({ id: apiKeys.id, name: apiKeys.name, hint: apiKeys.hint, revokedAt: apiKeys.revokedAt, mode: apiKeys.mode })
          .from(apiKeys)
          .where(and(eq(apiKeys.orgId, scope.books.orgId), inArray(apiKeys.id, keyIds)))
    ).map((key) => [key.id, key]),
  );
  const fromStore: SliceRow[] = stored.map((row) => {
    const key = keys.get(row.keyId);
    return {
      ...row,
      createdAt: new Date(row.cursorAt),
      keyName: key?.name ?? null,
      keyHint: key?.hint ?? null,
      keyRevokedAt: key?.revokedAt ?? null,
      keyMode: key?.mode ?? null,
    };
  });
  // Cursor times are fixed-width ISO text, so they order as text.
  const sign = slice.direction === "older" ? -1 : 1;
  const walking = (a: SliceRow, b: SliceRow) => sign * (a.cursorAt < b.cursorAt ? -1 : a.cursorAt > b.cursorAt ? 1 : a.id - b.id);
  return [...unexported, ...fromStore].sort(walking).slice(0, slice.limit);
}
