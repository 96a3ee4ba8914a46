import "server-only";
import { getDb, type Tx } from "@/db";
import { newId } from "@/core/ids";
import { insertActivity } from "@/db/queries/activity";
import { findInvitationByTokenHash, markInvitationAccepted, type InvitationViewDto } from "@/db/queries/invitations";
import { insertMembership } from "@/db/queries/members";
import { findMembership } from "@/db/queries/organizations";
import { EmailTakenError, getUser, insertUser } from "@/db/queries/users";
import type { Client } from "@/lib/auth/client";
import { hashPassword } from "@/lib/auth/password";
import { countSignUp } from "@/lib/auth/sign-up";
import { UserFacingError } from "@/lib/errors";
import { hashInvitationToken } from "./token";

/**
 * Accepting an invitation, by a signed-in user with its email or by signing up through
 * its link. Either adds the membership, closes the invitation and records it, in one transaction
 * that holds the invitation's row: of two acceptances at once, the second finds it used.
 */

/** What the link's page and a refused acceptance say of an invitation that cannot be accepted. */
export function invitationRefusal(invitation: InvitationViewDto | null): string | null {
  if (!invitation) return "This invitation link is not valid. Check that you copied all of it, or ask for a new one.";
  const from = invitation.invitedByName ? `${invitation.invitedByName} at ${invitation.orgName}` : `an owner or admin of ${invitation.orgName}`;
  switch (invitation.state) {
    case "open":
      return null;
    case "accepted":
      return `This invitation to ${invitation.orgName} has already been used. Each link works once.`;
    case "revoked":
      return `This invitation to ${invitation.orgName} was revoked or replaced by a newer one. Ask ${from} for a new link.`;
    case "expired":
      return `This invitation to ${invitation.orgName} expired on ${invitation.expiresAt.slice(0, 10)}. Ask ${from} for a new link.`;
  }
}

/** The invitation of a link, as its page shows it (any state), or null. */
export function findInvitation(token: string): Promise<InvitationViewDto | null> {
  return findInvitationByTokenHash(getDb(), hashInvitationToken(token));
}

async function lockOpenInvitationByToken(tx: Tx, token: string): Promise<InvitationViewDto> {
  const invitation = await findInvitationByTokenHash(tx, hashInvitationToken(token), new Date(), { lock: true });
  const refusal = invitationRefusal(invitation);
  if (refusal) throw new UserFacingError(refusal);
  return invitation!;
}

async function join(tx: Tx, invitation: InvitationViewDto, user: { id: string; name: string }, client: Client): Promise<{ orgSlug: string }> {
  await insertMembership(tx, invitation.orgId, user.id, invitation.role);
  await markInvitationAccepted(tx, invitation.id, user.id);
  await insertActivity(tx, invitation.orgId, { kind: "user", userId: user.id, ...client }, [
    {
      action: "member.joined",
      target: { type: "member", id: user.id, name: user.name },
      after: { email: invitation.email, role: invitation.role, invitation: invitation.id },
    },
  ]);
  return { orgSlug: invitation.orgSlug };
}

/** A signed-in user accepts: only with the invited email, and only once. */
export async function acceptInvitation(token: string, userId: string, client: Client): Promise<{ orgSlug: string }> {
  return getDb().transaction(async (tx) => {
    const invitation = await lockOpenInvitationByToken(tx, token);
    const user = await getUser(userId, tx);
    if (!user) throw new UserFacingError("Your session has ended. Sign in again.");
    if (user.email !== invitation.email) {
      throw new UserFacingError(
        `This invitation is for ${invitation.email}, and you are signed in as ${user.email}. Sign out and sign in with ${invitation.email} to accept it.`,
      );
    }
    if (await findMembership(userId, invitation.orgId, tx)) throw new UserFacingError(`You are already a member of ${invitation.orgName}.`);
    return join(tx, invitation, user, client);
  });
}

/** A new user signs up through the link: the account takes the invitation's email and joins, with no organization of its own. */
export async function signUpWithInvitation(
  input: { token: string; name: string; password: string },
  client: Client,
): Promise<{ email: string; orgSlug: string }> {
  await countSignUp(client);
  const passwordHash = await hashPassword(input.password);
  return getDb().transaction(async (tx) => {
    const invitation = await lockOpenInvitationByToken(tx, input.token);
    const user = { id: newId("usr"), name: input.name, email: invitation.email };
    try {
      await insertUser(tx, { ...user, passwordHash });
    } catch (error) {
      if (error instanceof EmailTakenError) throw new UserFacingError(`An account with ${invitation.email} already exists. Sign in to accept the invitation.`);
      throw error;
    }
    return { email: user.email, ...(await join(tx, invitation, user, client)) };
  });
}
