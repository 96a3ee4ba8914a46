import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, type DbOrTx } from "@/db";
import type { Role } from "@/core/enums";
import { invitations, organizations, users } from "@/db/schema";

/** An invitation not accepted or revoked: pending, or expired until someone revokes or replaces it. */
export interface InvitationDto {
  id: string;
  email: string;
  role: Role;
  invitedByName: string | null;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

const inviter = alias(users, "inviter");

export async function listOpenInvitations(orgId: string, now = new Date()): Promise<InvitationDto[]> {
  const rows = await getDb()
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedByName: inviter.name,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(and(eq(invitations.orgId, orgId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(), expired: row.expiresAt <= now }));
}

/** Revokes the email's open invitation, if any, returning its id: a new invitation replaces it. */
export async function revokeOpenInvitationFor(tx: DbOrTx, orgId: string, email: string, by: string): Promise<string | null> {
  const [row] = await tx
    .update(invitations)
    .set({ revokedAt: new Date(), revokedBy: by })
    .where(and(eq(invitations.orgId, orgId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  return row?.id ?? null;
}

export async function insertInvitation(tx: DbOrTx, invitation: typeof invitations.$inferInsert): Promise<void> {
  await tx.insert(invitations).values(invitation);
}

/** An open invitation of the organization, locked; null when there is none by that id. */
export async function lockOpenInvitation(tx: DbOrTx, orgId: string, invitationId: string): Promise<{ id: string; email: string; role: Role } | null> {
  const [row] = await tx
    .select({ id: invitations.id, email: invitations.email, role: invitations.role })
    .from(invitations)
    .where(and(eq(invitations.orgId, orgId), eq(invitations.id, invitationId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .for("update");
  return row ?? null;
}

export async function markInvitationRevoked(tx: DbOrTx, invitationId: string, by: string): Promise<void> {
  await tx.update(invitations).set({ revokedAt: new Date(), revokedBy: by }).where(eq(invitations.id, invitationId));
}

/** What an invitation link's page says, whoever opens it. */
export interface InvitationViewDto {
  id: string;
  orgId: string;
  orgName: string;
  orgSlug: string;
  email: string;
  role: Role;
  invitedByName: string | null;
  expiresAt: string;
  state: "open" | "accepted" | "revoked" | "expired";
}

/** The invitation whose token hashes to `tokenHash`, in whatever state, or null. Locks it inside a transaction. */
export async function findInvitationByTokenHash(
  db: DbOrTx,
  tokenHash: string,
  now = new Date(),
  options: { lock?: boolean } = {},
): Promise<InvitationViewDto | null> {
  const query = db
    .select({
      id: invitations.id,
      orgId: invitations.orgId,
      orgName: organizations.name,
      orgSlug: organizations.slug,
      email: invitations.email,
      role: invitations.role,
      invitedByName: inviter.name,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.orgId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, tokenHash));
  const [row] = options.lock ? await query.for("update", { of: invitations }) : await query;
  if (!row) return null;
  const { acceptedAt, revokedAt, expiresAt, ...rest } = row;
  const state = acceptedAt ? "accepted" : revokedAt ? "revoked" : expiresAt <= now ? "expired" : "open";
  return { ...rest, expiresAt: expiresAt.toISOString(), state };
}

export async function markInvitationAccepted(tx: DbOrTx, invitationId: string, userId: string): Promise<void> {
  await tx.update(invitations).set({ acceptedAt: new Date(), acceptedBy: userId }).where(eq(invitations.id, invitationId));
}
