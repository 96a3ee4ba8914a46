import "server-only";
import { and, count, desc, eq, gt, gte, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, type DbOrTx } from "@/db";
import { apiKeys, organizations, requestDailyRollup, users } from "@/db/schema";
import type { Plan } from "@/db/enums";
import { utcDay } from "@/db/time";
import { callsThisMonth } from "@/db/monthly-usage";

export type ApiKeyStatus = "active" | "expired" | "revoked";

/** What the dashboard may know of a key: never its hash, never its value. */
export interface ApiKeyDto {
  id: string;
  name: string;
  hint: string;
  status: ApiKeyStatus;
  createdAt: string;
  createdByName: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedByName: string | null;
  /** When the key stops (or stopped) working; null: never. */
  expiresAt: string | null;
  requestsLast30Days: number;
}

const creator = alias(users, "creator");
const revoker = alias(users, "revoker");

/** First UTC day of the 30-day window (today included). */
export function windowStartDay(now = new Date()): string {
  return utcDay(new Date(now.getTime() - 29 * 24 * 60 * 60 * 1000));
}

function keyQuery(db: DbOrTx, orgId: string, now: Date) {
  const requests = db
    .select({ apiKeyId: requestDailyRollup.apiKeyId, total: sql<number>`sum(${requestDailyRollup.count})::int`.as("total") })
    .from(requestDailyRollup)
    .where(and(eq(requestDailyRollup.orgId, orgId), gte(requestDailyRollup.day, windowStartDay(now))))
    .groupBy(requestDailyRollup.apiKeyId)
    .as("requests");
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      hint: apiKeys.hint,
      createdAt: apiKeys.createdAt,
      createdByName: creator.name,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      revokedByName: revoker.name,
      expiresAt: apiKeys.expiresAt,
      requests: requests.total,
    })
    .from(apiKeys)
    .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
    .leftJoin(revoker, eq(revoker.id, apiKeys.revokedBy))
    .leftJoin(requests, eq(requests.apiKeyId, apiKeys.id));
}

type KeyRow = Awaited<ReturnType<typeof keyQuery>>[number];

/** A person's revocation ends a key before its expiry does, as the gateway decides (SPEC §7). */
function statusOf(row: Pick<KeyRow, "revokedAt" | "expiresAt">, now: Date): ApiKeyStatus {
  if (row.revokedAt) return "revoked";
  return row.expiresAt && row.expiresAt <= now ? "expired" : "active";
}

function toDto(row: KeyRow, now: Date): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    status: statusOf(row, now),
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedByName: row.revokedByName,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    requestsLast30Days: row.requests ?? 0,
  };
}

export async function listApiKeys(orgId: string, now = new Date()): Promise<ApiKeyDto[]> {
  const rows = await keyQuery(getDb(), orgId, now).where(eq(apiKeys.orgId, orgId)).orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => toDto(row, now));
}

export async function getApiKey(orgId: string, keyId: string, db: DbOrTx = getDb(), now = new Date()): Promise<ApiKeyDto | null> {
  const [row] = await keyQuery(db, orgId, now).where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId)));
  return row ? toDto(row, now) : null;
}

/** Keys that can still make calls: neither revoked nor expired. The plan's key limit counts these. */
export async function countActiveKeys(db: DbOrTx, orgId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))));
  return row?.n ?? 0;
}

export interface OrgUsageDto {
  plan: Plan;
  rateLimitPerMinute: number | null;
  activeKeys: number;
  callsThisMonth: number;
}

export async function getOrgUsage(orgId: string, now = new Date()): Promise<OrgUsageDto> {
  const db = getDb();
  const [org] = await db
    .select({ plan: organizations.plan, rateLimitPerMinute: organizations.rateLimitPerMinute })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!org) throw new Error(`Organization ${orgId} not found`);
  const [activeKeys, calls] = await Promise.all([countActiveKeys(db, orgId), callsThisMonth(db, orgId, now)]);
  return { plan: org.plan, rateLimitPerMinute: org.rateLimitPerMinute, activeKeys, callsThisMonth: calls };
}

export async function insertApiKey(
  tx: DbOrTx,
  key: { id: string; orgId: string; name: string; keyHash: string; hint: string; createdBy: string; expiresAt: Date | null },
): Promise<void> {
  await tx.insert(apiKeys).values(key);
}

/** Marks an active key revoked; null when the organization has no such active key. */
/** Ends a key now; returns it with the status it had (active, or expired already), or null if it was revoked before. */
export async function markApiKeyRevoked(tx: DbOrTx, orgId: string, keyId: string, userId: string, now = new Date()): Promise<{ id: string; name: string; statusBefore: ApiKeyStatus } | null> {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: now, revokedBy: userId })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, expiresAt: apiKeys.expiresAt });
  return row ? { id: row.id, name: row.name, statusBefore: statusOf({ revokedAt: null, expiresAt: row.expiresAt }, now) } : null;
}
