import type { UsageCursor, UsageRow } from "@/core/usage-query";

/** A usage row's place as an opaque cursor, the `next_cursor` GET /v1/usage gives and takes back (docs/features/usage-analytics.md). */
export function encodeUsageCursor(row: UsageRow): string {
  return Buffer.from(JSON.stringify([row.bucketStart, row.keyId, row.endpoint, row.status])).toString("base64url");
}

/** The place a cursor names, or null for text that is not a cursor encodeUsageCursor gave. */
export function decodeUsageCursor(cursor: string): UsageCursor | null {
  try {
    const [bucketStart, keyId, endpoint, status] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const textOrNull = (value: unknown) => value === null || typeof value === "string";
    if (
      typeof bucketStart === "string" &&
      !Number.isNaN(Date.parse(bucketStart)) &&
      textOrNull(keyId) &&
      textOrNull(endpoint) &&
      (status === null || Number.isInteger(status))
    ) {
      return { bucketStart, keyId: keyId as string | null, endpoint: endpoint as string | null, status: status as number | null };
    }
  } catch {
    // Not base64url JSON: not a cursor, like any other text this endpoint did not give.
  }
  return null;
}
