import type { UsageGroup, UsageQuery } from "./usage-query";

/**
 * The levels of detail a closed period's usage is kept at as documents (lib/usage/snapshot-document.ts),
 * one document per level: every read picks the coarsest level that holds what it groups and
 * filters by. The page's breakdowns never ask for statuses, and a level without them is a third of
 * the size (most key × endpoint pairs have several).
 */
export const SNAPSHOT_LEVELS = {
  total: [],
  status: ["status"],
  key: ["key"],
  "key-status": ["key", "status"],
  endpoint: ["endpoint"],
  "endpoint-status": ["endpoint", "status"],
  "key-endpoint": ["key", "endpoint"],
  "key-endpoint-status": ["key", "endpoint", "status"],
} as const satisfies Record<string, readonly UsageGroup[]>;
export type SnapshotLevel = keyof typeof SNAPSHOT_LEVELS;
export const SNAPSHOT_LEVEL_NAMES = Object.keys(SNAPSHOT_LEVELS) as SnapshotLevel[];

/** What of a query picks its level and filters a document's parts. */
export type SnapshotFilters = Pick<UsageQuery, "groupBy" | "keyId" | "endpoint" | "method" | "status">;

export function snapshotLevelFor(query: SnapshotFilters): SnapshotLevel {
  const key = query.groupBy.includes("key") || query.keyId !== undefined;
  const endpoint = query.groupBy.includes("endpoint") || query.endpoint !== undefined || query.method !== undefined;
  const status = query.groupBy.includes("status") || query.status !== undefined;
  const groups = key ? (endpoint ? "key-endpoint" : "key") : endpoint ? "endpoint" : null;
  if (groups === null) return status ? "status" : "total";
  return status ? `${groups}-status` : groups;
}
