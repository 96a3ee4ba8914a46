import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { activityLog, ssoConnections, ssoDomains } from "@/db/schema";

/** What the single sign-on tests read of the database (docs/features/sso.md). */

/** The action's data, or a failure naming its refusal. */
export function must<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result as Extract<T, { ok: true }>;
}

/** The organization's history entries of one action. */
export function historyOf(orgId: string, action: string) {
  return getDb()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, action as never)));
}

/** What the organization has of single sign-on, and how many entries its history holds: what a refusal must leave as it was. */
export async function ssoState(orgId: string): Promise<string> {
  const [connection] = await getDb().select().from(ssoConnections).where(eq(ssoConnections.orgId, orgId));
  const domains = await getDb().select().from(ssoDomains).where(eq(ssoDomains.orgId, orgId));
  const history = await getDb().select().from(activityLog).where(eq(activityLog.orgId, orgId));
  return JSON.stringify({ connection, domains, history: history.length });
}
