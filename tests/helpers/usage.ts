import { and, eq, sum } from "drizzle-orm";
import { getDb } from "@/db";
import { monthlyUsage } from "@/db/schema";
import { utcMonthStart } from "@/core/time";

/** The month's calls counted toward the quota, over all its shards. */
export async function countedThisMonth(orgId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sum(monthlyUsage.count).mapWith(Number) })
    .from(monthlyUsage)
    .where(and(eq(monthlyUsage.orgId, orgId), eq(monthlyUsage.month, utcMonthStart(new Date()))));
  return row?.n ?? 0;
}
