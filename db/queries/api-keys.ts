import "server-only";
import { and, count, desc, eq, gt, gte, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, type DbOrTx } from "@/db";
import { apiKeys, budgetOfColumns, organizations, requestDailyRollup, users } from "@/db/schema";
import type { KeyRestrictions, Mode, Plan, RevokeReason } from "@/core/enums";
import { keyStatus, type ApiKeyStatus } from "@/core/key-status";
import { utcDay } from "@/core/time";
import { callsThisMonth } from "@/db/queries/monthly-usage";
import { budgetPeriodEnd, budgetPeriodStart, type KeyBudget, type KeyBudgetDto } from "@/core/key-budget";

/** What the dashboard may know of a key: never its hash, never its value. */
export interface ApiKeyDto extends KeyRestrictions {
  id: string;
  name: string;
  /** Live or test (docs/features/test-mode.md#keys): fixed at creation. */
  mode: Mode;
  hint: string;
  status: ApiKeyStatus;
  createdAt: string;
  createdByName: string | null;
  lastUsedAt: string | null;
  /** The client address and route template of the last use, e.g. "GET /v1/invoices". */
  lastUsedIp: string | null;
  lastUsedEndpoint: string | null;
  revokedAt: string | null;
  revokedByName: string | null;
  revokeReason: RevokeReason | null;
  revokeNote: string | null;
  /** When the key stops (or stopped) working; null: never. */
  expiresAt: string | null;
  /** The key rolled from this one (docs/features/api-keys.md#roll), and when: this key ends when the overlap does. */
  replacedBy: { id: string; name: string; hint: string; at: string } | null;
  /** The key this one was rolled from. */
  replaces: { id: string; name: string; hint: string } | null;
  requestsLast30Days: number;
  /** The key's budget and where this period stands, or null when it has none. */
  budget: KeyBudgetDto | null;
}

const creator = alias(users, "creator");
const revoker = alias(users, "revoker");
const successor = alias(apiKeys, "successor");
const predecessor = alias(apiKeys, "predecessor");

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
      mode: apiKeys.mode,
      hint: apiKeys.hint,
      createdAt: apiKeys.createdAt,
      createdByName: creator.name,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedIp: apiKeys.lastUsedIp,
      lastUsedEndpoint: apiKeys.lastUsedEndpoint,
      revokedAt: apiKeys.revokedAt,
      revokedByName: revoker.name,
      revokeReason: apiKeys.revokeReason,
      revokeNote: apiKeys.revokeNote,
      expiresAt: apiKeys.expiresAt,
      access: apiKeys.access,
      scopes: apiKeys.scopes,
      ipAllowlist: apiKeys.ipAllowlist,
      successorId: successor.id,
      successorName: successor.name,
      successorHint: successor.hint,
      successorCreatedAt: successor.createdAt,
      predecessorId: predecessor.id,
      predecessorName: predecessor.name,
      predecessorHint: predecessor.hint,
      requests: requests.total,
      budgetLimit: apiKeys.budgetLimit,
      budgetPeriod: apiKeys.budgetPeriod,
      // The period the admission statement counts in now: date_trunc as it has it.
      budgetUsed: sql<number | null>`(select u.used from key_budget_usage u where u.org_id = ${apiKeys.orgId} and u.api_key_id = ${apiKeys.id}
        and u.period_start = date_trunc(${apiKeys.budgetPeriod}, ${now.toISOString()}::timestamptz, 'UTC'))`,
    })
    .from(apiKeys)
    .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
    .leftJoin(revoker, eq(revoker.id, apiKeys.revokedBy))
    .leftJoin(successor, and(eq(successor.orgId, apiKeys.orgId), eq(successor.replacesKeyId, apiKeys.id)))
    .leftJoin(predecessor, and(eq(predecessor.orgId, apiKeys.orgId), eq(predecessor.id, apiKeys.replacesKeyId)))
    .leftJoin(requests, eq(requests.apiKeyId, apiKeys.id));
}

type KeyRow = Awaited<ReturnType<typeof keyQuery>>[number];

function toDto(row: KeyRow, now: Date): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    hint: row.hint,
    status: keyStatus(row, now),
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    lastUsedEndpoint: row.lastUsedEndpoint,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedByName: row.revokedByName,
    revokeReason: row.revokeReason,
    revokeNote: row.revokeNote,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    access: row.access,
    scopes: row.scopes,
    ipAllowlist: row.ipAllowlist,
    replacedBy: row.successorId ? { id: row.successorId, name: row.successorName!, hint: row.successorHint!, at: row.successorCreatedAt!.toISOString() } : null,
    replaces: row.predecessorId ? { id: row.predecessorId, name: row.predecessorName!, hint: row.predecessorHint! } : null,
    requestsLast30Days: row.requests ?? 0,
    budget: budgetDto(budgetOfColumns(row), row.budgetUsed ?? 0, now),
  };
}

function budgetDto(budget: KeyBudget | null, used: number, now: Date): KeyBudgetDto | null {
  if (!budget) return null;
  const start = budgetPeriodStart(now, budget.period);
  return { ...budget, used, periodStart: start.toISOString(), resetsAt: budgetPeriodEnd(start, budget.period).toISOString() };
}

export async function listApiKeys(orgId: string, now = new Date()): Promise<ApiKeyDto[]> {
  const rows = await keyQuery(getDb(), orgId, now).where(eq(apiKeys.orgId, orgId)).orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => toDto(row, now));
}

/** A key as a filter or a table names it: the logs' key filters, the Usage page's rows. */
export interface KeyNameDto {
  id: string;
  name: string;
  hint: string;
  revoked: boolean;
}

/** The names of the organization's keys, revoked ones too; of one mode only when `mode` is given (a traffic view's, docs/features/test-mode.md#traffic). */
export async function listKeyNames(orgId: string, mode?: Mode): Promise<KeyNameDto[]> {
  const keys = await listApiKeys(orgId);
  return keys
    .filter((key) => mode === undefined || key.mode === mode)
    .map((key) => ({ id: key.id, name: key.name, hint: key.hint, revoked: key.status === "revoked" }));
}

export async function getApiKey(orgId: string, keyId: string, db: DbOrTx = getDb(), now = new Date()): Promise<ApiKeyDto | null> {
  const [row] = await keyQuery(db, orgId, now).where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId)));
  return row ? toDto(row, now) : null;
}

/**
 * Keys that can still make calls (neither revoked nor expired), of each mode: the plan's key limit
 * counts the two apart (docs/features/test-mode.md#keys).
 */
export async function countActiveKeys(db: DbOrTx, orgId: string): Promise<Record<Mode, number>> {
  const rows = await db
    .select({ mode: apiKeys.mode, n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))))
    .groupBy(apiKeys.mode);
  const counts: Record<Mode, number> = { live: 0, test: 0 };
  for (const row of rows) counts[row.mode] = row.n;
  return counts;
}

export interface OrgUsageDto {
  plan: Plan;
  rateLimitPerMinute: number | null;
  /** Active live keys: what the plan's figures mean by "keys". */
  activeKeys: number;
  /** Active test keys, held to the same maximum apart. */
  activeTestKeys: number;
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
  return { plan: org.plan, rateLimitPerMinute: org.rateLimitPerMinute, activeKeys: activeKeys.live, activeTestKeys: activeKeys.test, callsThisMonth: calls };
}
