import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";

/** Drops windows that ended more than a few minutes ago; they decide nothing any more. */
export async function pruneRateWindows(before: Date): Promise<void> {
  await getDb().execute(sql`delete from rate_limit_windows where window_start < ${before.toISOString()}`);
}
