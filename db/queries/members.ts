import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import type { Role } from "@/core/enums";
import { memberships, ssoConnections, ssoIdentities, users } from "@/db/schema";
import { hasSecondFactorSql } from "./two-factor";

/** A person in the organization as the Members page shows them (docs/features/members.md). */
export interface MemberDto {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  lastSignInAt: string | null;
  /** Has a second factor for sign-in. */
  hasTwoFactor: boolean;
  /** Has a password; false for someone who joined through an identity provider. Never the hash itself. */
  hasPassword: boolean;
  /**
   * When they last signed in through this organization's identity provider, or null when they are
   * not linked to it (an ISO string, as the other dates here). Another organization's link is not this one's business.
   */
  ssoLastSignInAt: string | null;
}

/** The Members page's order: owners first, then by role, then by name. */
export async function listMembers(orgId: string): Promise<MemberDto[]> {
  const rows = await getDb()
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      lastSignInAt: users.lastSignInAt,
      hasTwoFactor: hasSecondFactorSql(users.id),
      // Decided in the database, so the hash never leaves it.
      hasPassword: sql<boolean>`(${users.passwordHash} is not null)`,
      ssoLastSignInAt: ssoIdentities.lastSignInAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    // At most one identity a person an organization (sso_identities_org_user_idx), so no member
    // is listed twice; joined on org_id, so a link to another organization's provider is not one here.
    .leftJoin(ssoIdentities, and(eq(ssoIdentities.orgId, memberships.orgId), eq(ssoIdentities.userId, memberships.userId)))
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(memberships.role), asc(users.name), asc(users.id));
  return rows.map((row) => ({
    ...row,
    joinedAt: row.joinedAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    ssoLastSignInAt: row.ssoLastSignInAt?.toISOString() ?? null,
  }));
}

/** Whether the organization requires single sign-on of everyone but its owners (docs/features/sso.md#requiring-it). */
export async function isSsoRequired(orgId: string): Promise<boolean> {
  const [row] = await getDb().select({ required: ssoConnections.requireSso }).from(ssoConnections).where(eq(ssoConnections.orgId, orgId));
  return row?.required ?? false;
}

/** A member as the member actions decide on them. */
export interface LockedMember {
  userId: string;
  name: string;
  email: string;
  role: Role;
}

/** A member's row, locked for the rest of the transaction; null when they are not a member. */
export async function lockMember(tx: DbOrTx, orgId: string, userId: string): Promise<LockedMember | null> {
  const [row] = await tx
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .for("update", { of: memberships });
  return row ?? null;
}

export async function countOwners(tx: DbOrTx, orgId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.role, "owner")));
  return row!.n;
}

export async function setMemberRole(tx: DbOrTx, orgId: string, userId: string, role: Role): Promise<void> {
  await tx
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
}

export async function deleteMember(tx: DbOrTx, orgId: string, userId: string): Promise<void> {
  await tx.delete(memberships).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
}

/** Whether the email already belongs to a member of the organization. */
export async function isMemberEmail(tx: DbOrTx, orgId: string, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(users.email, email)));
  return Boolean(row);
}

export async function insertMembership(tx: DbOrTx, orgId: string, userId: string, role: Role): Promise<void> {
  await tx.insert(memberships).values({ orgId, userId, role });
}
