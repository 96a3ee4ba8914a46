import "server-only";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import type { AlertKind } from "@/core/enums";
import { alertReads, alerts, apiKeys, organizations } from "@/db/schema";

/** An alert as the bell and the Alerts page show it, read or not by the person asking. */
export interface AlertDto {
  id: number;
  kind: AlertKind;
  createdAt: string;
  read: boolean;
  /** The key it is about, by its current name. */
  apiKey: { id: string; name: string } | null;
  details: Record<string, string | number>;
}

/** An organization's alert settings. */
export interface AlertSettings {
  /** Percent of the monthly quota, ascending; empty: no quota alerts. */
  quotaAlertThresholds: number[];
  /** More 429s of one key than this in five minutes raise an alert. */
  rateLimitAlertThreshold: number;
}

const readByUser = (userId: string) =>
  sql<boolean>`exists (select from ${alertReads} where ${alertReads.orgId} = ${alerts.orgId} and ${alertReads.userId} = ${userId} and ${alertReads.alertId} = ${alerts.id})`;

function alertQuery(userId: string | null) {
  return getDb()
    .select({
      id: alerts.id,
      kind: alerts.kind,
      createdAt: alerts.createdAt,
      read: userId === null ? sql<boolean>`false` : readByUser(userId),
      apiKeyId: alerts.apiKeyId,
      apiKeyName: apiKeys.name,
      details: alerts.details,
    })
    .from(alerts)
    .leftJoin(apiKeys, and(eq(apiKeys.orgId, alerts.orgId), eq(apiKeys.id, alerts.apiKeyId)));
}

function toDto({ apiKeyId, apiKeyName, createdAt, ...row }: Awaited<ReturnType<typeof alertQuery>>[number]): AlertDto {
  return { ...row, createdAt: createdAt.toISOString(), apiKey: apiKeyId && apiKeyName !== null ? { id: apiKeyId, name: apiKeyName } : null };
}

/** The organization's newest alerts, newest first, each marked read or not for `userId`. */
export async function listAlerts(orgId: string, userId: string, limit: number): Promise<AlertDto[]> {
  const rows = await alertQuery(userId).where(eq(alerts.orgId, orgId)).orderBy(desc(alerts.createdAt), desc(alerts.id)).limit(limit);
  return rows.map(toDto);
}

/** One alert of the organization, as nobody has read it: what its email says. */
export async function getAlert(orgId: string, alertId: number): Promise<AlertDto | null> {
  const [row] = await alertQuery(null).where(and(eq(alerts.orgId, orgId), eq(alerts.id, alertId)));
  return row ? toDto(row) : null;
}

/** How many of the organization's alerts `userId` has not read. */
export async function countUnreadAlerts(orgId: string, userId: string): Promise<number> {
  const [row] = await getDb()
    .select({ unread: count() })
    .from(alerts)
    .where(and(eq(alerts.orgId, orgId), sql`not ${readByUser(userId)}`));
  return row?.unread ?? 0;
}

/**
 * Marks one alert of the organization, or all of them, read for `userId`. Returns how many
 * alerts of the organization matched (read before or not), so another organization's alert is 0.
 */
export async function markAlertsRead(tx: DbOrTx, orgId: string, userId: string, alertId: number | "all"): Promise<number> {
  const matching = tx
    .select({ id: alerts.id })
    .from(alerts)
    .where(alertId === "all" ? eq(alerts.orgId, orgId) : and(eq(alerts.orgId, orgId), eq(alerts.id, alertId)));
  const found = await matching;
  if (found.length === 0) return 0;
  await tx
    .insert(alertReads)
    .values(found.map(({ id }) => ({ orgId, alertId: id, userId })))
    .onConflictDoNothing();
  return found.length;
}

const settingsColumns = { quotaAlertThresholds: organizations.quotaAlertThresholds, rateLimitAlertThreshold: organizations.rateLimitAlertThreshold };

export async function getAlertSettings(orgId: string): Promise<AlertSettings> {
  const [settings] = await getDb().select(settingsColumns).from(organizations).where(eq(organizations.id, orgId));
  if (!settings) throw new Error(`Organization ${orgId} not found`);
  return settings;
}

/** The settings and the organization's name, with its row locked for the rest of the transaction. */
export async function lockAlertSettings(tx: DbOrTx, orgId: string): Promise<AlertSettings & { name: string }> {
  const [settings] = await tx
    .select({ name: organizations.name, ...settingsColumns })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .for("update");
  if (!settings) throw new Error(`Organization ${orgId} not found`);
  return settings;
}

export async function setAlertSettings(tx: DbOrTx, orgId: string, settings: AlertSettings): Promise<void> {
  await tx.update(organizations).set(settings).where(eq(organizations.id, orgId));
}
