import "server-only";
import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { copyOut, getDb, type DbOrTx } from "@/db";
import { inert, withLiterals } from "@/db/queries/csv-export";
import {
  beyondCursor,
  cursorTime,
  keysetPage,
  walkingOrder,
  withinWindow,
  type KeysetColumns,
  type KeysetCursor,
  type KeysetPage,
  type KeysetSlice,
} from "@/db/keyset";
import { timeWindow, type RangePreset } from "@/core/request-log";
import { activityLog, memberships, users } from "@/db/schema";
import { KEY_ENDING_ACTIONS, type ActivityAction, type ActivityChange, type ActivityTargetType, type ActivityValues } from "@/core/activity";

/** Who made a change: a signed-in person, from where, or the system itself. */
export type ActivityActor = { kind: "user"; userId: string; ip: string | null; userAgent: string | null } | { kind: "system" };

/** Writes the entries of one change; called inside the change's own transaction. */
export async function insertActivity(tx: DbOrTx, orgId: string, actor: ActivityActor, changes: readonly ActivityChange[]): Promise<void> {
  if (changes.length === 0) return;
  const who =
    actor.kind === "user"
      ? { actorKind: "user" as const, actorUserId: actor.userId, ip: actor.ip, userAgent: actor.userAgent }
      : { actorKind: "system" as const };
  await tx.insert(activityLog).values(
    changes.map((change) => ({
      orgId,
      ...who,
      action: change.action,
      targetType: change.target.type,
      targetId: change.target.id,
      targetName: change.target.name,
      before: change.before ?? null,
      after: change.after ?? null,
    })),
  );
}

export interface ActivityFilters {
  action?: ActivityAction;
  /** A user id, or "system". */
  actor?: string;
  key?: string;
  range?: RangePreset | "custom";
  from?: string;
  to?: string;
  before?: KeysetCursor;
  after?: KeysetCursor;
}

export interface ActivityEntryDto {
  id: number;
  createdAt: string;
  actorKind: "user" | "system";
  /** Null for the system, or when the person's account is gone. */
  actorName: string | null;
  action: string;
  targetType: ActivityTargetType;
  targetId: string;
  targetName: string;
  before: ActivityValues | null;
  after: ActivityValues | null;
  ip: string | null;
  userAgent: string | null;
}

export type ActivityPageDto = KeysetPage<ActivityEntryDto>;

const ACTIVITY_PAGE_SIZE = 50;

const timeline: KeysetColumns = { at: activityLog.createdAt, id: activityLog.id };
const cursorAt = cursorTime(timeline);

function filterConditions(orgId: string, filters: ActivityFilters, now: Date): SQL[] {
  const conditions: SQL[] = [eq(activityLog.orgId, orgId), ...withinWindow(timeline, timeWindow(filters, now))];
  if (filters.action) conditions.push(eq(activityLog.action, filters.action));
  if (filters.actor === "system") conditions.push(eq(activityLog.actorKind, "system"));
  else if (filters.actor) conditions.push(eq(activityLog.actorUserId, filters.actor));
  if (filters.key) conditions.push(and(eq(activityLog.targetType, "api_key"), eq(activityLog.targetId, filters.key))!);
  return conditions;
}

async function readSlice(orgId: string, filters: ActivityFilters, now: Date, slice: KeysetSlice) {
  const rows = await getDb()
    .select({
      id: activityLog.id,
      cursorAt,
      createdAt: activityLog.createdAt,
      actorKind: activityLog.actorKind,
      actorName: users.name,
      action: activityLog.action,
      targetType: activityLog.targetType,
      targetId: activityLog.targetId,
      targetName: activityLog.targetName,
      before: activityLog.before,
      after: activityLog.after,
      ip: activityLog.ip,
      userAgent: activityLog.userAgent,
    })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorUserId))
    .where(and(...filterConditions(orgId, filters, now), slice.cursor && beyondCursor(timeline, slice.cursor, slice.direction)))
    .orderBy(...walkingOrder(timeline, slice.direction))
    .limit(slice.limit);
  return slice.direction === "older" ? rows : rows.reverse();
}

/** One page of the organization's history matching the filters, newest first, by keyset. */
export async function listActivity(orgId: string, filters: ActivityFilters, options: { now?: Date; pageSize?: number } = {}): Promise<ActivityPageDto> {
  const now = options.now ?? new Date();
  const page = await keysetPage((slice) => readSlice(orgId, filters, now, slice), filters, options.pageSize ?? ACTIVITY_PAGE_SIZE);
  return {
    ...page,
    rows: page.rows.map(({ cursorAt: _cursor, createdAt, before, after, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      before: (before as ActivityValues | null) ?? null,
      after: (after as ActivityValues | null) ?? null,
    })),
  };
}

export interface KeyEndingDto {
  action: (typeof KEY_ENDING_ACTIONS)[number];
  at: string;
}

/** The entry that ended each of these keys (revoked by a person, or expired), by key id. */
export async function keyEndings(orgId: string, keyIds: readonly string[]): Promise<Map<string, KeyEndingDto>> {
  if (keyIds.length === 0) return new Map();
  const rows = await getDb()
    .selectDistinctOn([activityLog.targetId], { keyId: activityLog.targetId, action: activityLog.action, at: activityLog.createdAt })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.orgId, orgId),
        eq(activityLog.targetType, "api_key"),
        inArray(activityLog.targetId, [...keyIds]),
        inArray(activityLog.action, [...KEY_ENDING_ACTIONS]),
      ),
    )
    .orderBy(activityLog.targetId, asc(activityLog.createdAt), asc(activityLog.id));
  return new Map(rows.map((row) => [row.keyId, { action: row.action as KeyEndingDto["action"], at: row.at.toISOString() }]));
}

const EXPORT_COLUMNS = {
  time: sql`to_char(${activityLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  entry_id: activityLog.id,
  actor: sql`case when ${activityLog.actorKind} = 'system' then 'system' else coalesce(${inert(users.email)}, 'deleted user') end`,
  action: activityLog.action,
  target_type: activityLog.targetType,
  target_id: activityLog.targetId,
  target_name: inert(activityLog.targetName),
  before: inert(sql`${activityLog.before}::text`),
  after: inert(sql`${activityLog.after}::text`),
  ip: inert(activityLog.ip),
  user_agent: inert(activityLog.userAgent),
};

/** The history matching the filters as CSV (cursors ignored), newest first, encoded and streamed by PostgreSQL. */
export async function activityCsv(orgId: string, filters: ActivityFilters, options: { now?: Date } = {}): Promise<ReadableStream<Uint8Array>> {
  const now = options.now ?? new Date();
  const columns = Object.entries(EXPORT_COLUMNS).map(([name, expression]) => sql`${expression} as ${sql.identifier(name)}`);
  const query = getDb()
    .select({ row: sql`${sql.join(columns, sql`, `)}` })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorUserId))
    .where(and(...filterConditions(orgId, filters, now)))
    .orderBy(...walkingOrder(timeline, "older"));
  return copyOut(await withLiterals(query.toSQL()), "format csv, header true");
}

export interface ActivityActorOptionDto {
  id: string;
  name: string;
}

/** The people the actor filter offers: the organization's members and anyone who has an entry. */
export async function getActivityActors(orgId: string): Promise<ActivityActorOptionDto[]> {
  const rows = await getDb()
    .selectDistinct({ id: users.id, name: users.name })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, orgId)))
    .where(
      or(
        sql`${memberships.userId} is not null`,
        sql`exists (select 1 from ${activityLog} where ${activityLog.orgId} = ${orgId} and ${activityLog.actorUserId} = ${users.id})`,
      ),
    )
    .orderBy(asc(users.name));
  return rows;
}
