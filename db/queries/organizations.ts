import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { memberships, organizations, ssoConnections, users } from "@/db/schema";
import { hasSecondFactorSql } from "./two-factor";
import type { KeyPolicy, LeakedKeyResponse, Plan, Role } from "@/core/enums";

export interface MembershipDto {
  orgId: string;
  orgName: string;
  orgSlug: string;
  plan: Plan;
  rateLimitPerMinute: number | null;
  role: Role;
  /** The organization requires two-factor sign-in and this person has none yet, so they reach nothing of it. */
  needsTwoFactor: boolean;
  /** The organization requires single sign-on of this person (not an owner): only a session its provider made reaches it. */
  ssoRequired: boolean;
}

const membershipColumns = {
  orgId: organizations.id,
  orgName: organizations.name,
  orgSlug: organizations.slug,
  plan: organizations.plan,
  rateLimitPerMinute: organizations.rateLimitPerMinute,
  role: memberships.role,
  needsTwoFactor: sql<boolean>`(${organizations.requireTwoFactor} and not ${hasSecondFactorSql(memberships.userId)})`,
  ssoRequired: sql<boolean>`(${memberships.role} <> 'owner' and exists (select 1 from ${ssoConnections} where ${ssoConnections.orgId} = ${organizations.id} and ${ssoConnections.requireSso}))`,
};

export async function listMemberships(userId: string, db: DbOrTx = getDb()): Promise<MembershipDto[]> {
  return db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name));
}

/** The user's membership in the organization, or null when they do not belong to it. */
export async function findMembership(userId: string, orgId: string, db: DbOrTx = getDb()): Promise<MembershipDto | null> {
  const [row] = await db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(and(eq(memberships.userId, userId), eq(memberships.orgId, orgId)));
  return row ?? null;
}

export async function findMembershipBySlug(userId: string, slug: string): Promise<MembershipDto | null> {
  const [row] = await getDb()
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(and(eq(memberships.userId, userId), eq(organizations.slug, slug)));
  return row ?? null;
}

export interface PlanChangeDto {
  at: string;
  byName: string | null;
}

/** When the plan last changed and who changed it, or null if it never has. */
export async function getPlanChange(orgId: string): Promise<PlanChangeDto | null> {
  const [row] = await getDb()
    .select({ at: organizations.planChangedAt, byName: users.name })
    .from(organizations)
    .leftJoin(users, eq(users.id, organizations.planChangedBy))
    .where(eq(organizations.id, orgId));
  return row?.at ? { at: row.at.toISOString(), byName: row.byName } : null;
}

const keyPolicyColumns = { maxLifetimeDays: organizations.keyMaxLifetimeDays, expiryRequired: organizations.keyExpiryRequired };

export async function getKeyPolicy(orgId: string): Promise<KeyPolicy> {
  const [policy] = await getDb().select(keyPolicyColumns).from(organizations).where(eq(organizations.id, orgId));
  if (!policy) throw new Error(`Organization ${orgId} not found`);
  return policy;
}

/**
 * Locks the organization row for the rest of the transaction and returns its plan and key policy:
 * concurrent key creations cannot both pass the plan's maximum, nor a plan or policy change slip
 * between them.
 */
export async function lockOrganization(
  tx: DbOrTx,
  orgId: string,
): Promise<{ name: string; plan: Plan; rateLimitPerMinute: number | null; keyPolicy: KeyPolicy }> {
  const [org] = await tx
    .select({ name: organizations.name, plan: organizations.plan, rateLimitPerMinute: organizations.rateLimitPerMinute, ...keyPolicyColumns })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .for("update");
  if (!org) throw new Error(`Organization ${orgId} not found`);
  const { maxLifetimeDays, expiryRequired, ...rest } = org;
  return { ...rest, keyPolicy: { maxLifetimeDays, expiryRequired } };
}

/** The organization's two-factor requirement and its response to a leaked key, both set by owners. */
export interface SecuritySettings {
  requireTwoFactor: boolean;
  leakedKeyResponse: LeakedKeyResponse;
}

const securityColumns = { requireTwoFactor: organizations.requireTwoFactor, leakedKeyResponse: organizations.leakedKeyResponse };

/** What the Members and Key policy pages show of the security settings. */
export async function securitySettings(orgId: string): Promise<SecuritySettings> {
  const [org] = await getDb().select(securityColumns).from(organizations).where(eq(organizations.id, orgId));
  return org ?? { requireTwoFactor: false, leakedKeyResponse: "revoke" };
}

/** The same, read under the row's lock for a change, with the organization's name for its history entry. */
export async function lockSecuritySettings(tx: DbOrTx, orgId: string): Promise<SecuritySettings & { name: string }> {
  const [org] = await tx
    .select({ name: organizations.name, ...securityColumns })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .for("update");
  if (!org) throw new Error(`Organization ${orgId} not found`);
  return org;
}

export async function setSecuritySettings(tx: DbOrTx, orgId: string, change: Partial<SecuritySettings>): Promise<void> {
  await tx.update(organizations).set(change).where(eq(organizations.id, orgId));
}

export async function setKeyPolicy(tx: DbOrTx, orgId: string, policy: KeyPolicy): Promise<void> {
  await tx
    .update(organizations)
    .set({ keyMaxLifetimeDays: policy.maxLifetimeDays, keyExpiryRequired: policy.expiryRequired })
    .where(eq(organizations.id, orgId));
}

export async function setPlan(tx: DbOrTx, orgId: string, plan: Plan, changedBy: string): Promise<void> {
  await tx.update(organizations).set({ plan, planChangedAt: new Date(), planChangedBy: changedBy }).where(eq(organizations.id, orgId));
}

export async function setRateLimit(tx: DbOrTx, orgId: string, rateLimitPerMinute: number | null): Promise<void> {
  await tx.update(organizations).set({ rateLimitPerMinute }).where(eq(organizations.id, orgId));
}

/**
 * Sign-ups naming the same organization choose its slug in turn (a transaction-scoped lock on the
 * first candidate); otherwise both would pick the same free one and the second insert would fail
 * on the unique slug. Returns the first candidate no organization has, or null.
 */
export async function firstFreeSlug(tx: Tx, candidates: Iterable<string>): Promise<string | null> {
  let locked = false;
  for (const candidate of candidates) {
    if (!locked) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organization-slug:${candidate}`}))`);
    locked = true;
    const [taken] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, candidate));
    if (!taken) return candidate;
  }
  return null;
}

/** A new organization, on the default plan and without members. */
export async function insertOrganization(tx: Tx, organization: { id: string; name: string; slug: string }): Promise<void> {
  await tx.insert(organizations).values(organization);
}

/** An organization's name and address, for messages about it; null when it is gone. */
export async function getOrganizationNames(orgId: string): Promise<{ name: string; slug: string } | null> {
  const [row] = await getDb().select({ name: organizations.name, slug: organizations.slug }).from(organizations).where(eq(organizations.id, orgId));
  return row ?? null;
}
