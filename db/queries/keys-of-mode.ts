import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Books } from "@/core/enums";

/**
 * Traffic of one mode (docs/features/test-mode.md#traffic): the rows whose key is one of the
 * books' keys. A key's mode never changes, so the key decides its requests' mode, and the request
 * log, its rollups and the live tail need no column of their own for it.
 */
export function keyOfMode(keyColumn: AnyPgColumn | SQL, books: Books): SQL {
  return sql`${keyColumn} in (select k.id from api_keys k where k.org_id = ${books.orgId} and k.mode = ${books.mode})`;
}

/** Whether the organization has a key of the other mode: without one, every row of its traffic is of this mode. */
export async function hasKeysOfOtherMode(books: Books): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(
    await getDb().execute(sql`select exists (select 1 from api_keys where org_id = ${books.orgId} and mode <> ${books.mode}) as found`),
  );
  return row!.found;
}
