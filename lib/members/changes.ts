import "server-only";
import type { z } from "zod";
import type { Role } from "@/core/enums";
import { newId } from "@/core/ids";
import { insertInvitation, lockOpenInvitation, markInvitationRevoked, revokeOpenInvitationFor } from "@/db/queries/invitations";
import { countOwners, deleteMember, isMemberEmail, lockMember, setMemberRole, type LockedMember } from "@/db/queries/members";
import { lockOrganization } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { mayManageRole, roleDeniedMessage } from "@/lib/authz";
import { publicBaseUrl } from "@/lib/base-url";
import { mailInvitation, type MailOutcome } from "@/lib/mail";
import { UserFacingError } from "@/lib/errors";
import { INVITATION_LIFETIME_DAYS, invitationPath } from "@/lib/invitations/link";
import { mintInvitationToken } from "@/lib/invitations/token";
import { ROLE_INFO } from "@/lib/roles";
import type { changeMemberRoleInput, invitationInput, inviteMemberInput, leaveOrganizationInput, memberInput } from "@/lib/members/input";

/**
 * Every change first locks the organization's row, so changes to its members run one
 * at a time, and then decides on the acting user's role as it is under that lock: two owners
 * demoting each other at once are decided in turn, and the second is no longer an owner.
 */

const NOT_A_MEMBER = "This person is not a member of this organization.";

/** Locks the organization's members; the acting user as they are now, whose role the checks use. */
async function lockMembers(ctx: ActionContext): Promise<{ actor: LockedMember; orgName: string }> {
  const org = await lockOrganization(ctx.tx, ctx.orgId);
  const actor = await lockMember(ctx.tx, ctx.orgId, ctx.userId);
  if (!actor) throw new UserFacingError("You are no longer a member of this organization.");
  return { actor, orgName: org.name };
}

function requireManageable(actorRole: Role, role: Role, field?: string): void {
  if (mayManageRole(actorRole, role)) return;
  const message = roleDeniedMessage(role);
  throw new UserFacingError(message, field ? { [field]: [message] } : undefined);
}

/** The member `userId`, locked; the organization's members must be locked first. */
async function memberOf(ctx: ActionContext, userId: string): Promise<LockedMember> {
  const member = await lockMember(ctx.tx, ctx.orgId, userId);
  if (!member) throw new UserFacingError(NOT_A_MEMBER);
  return member;
}

/** An organization always keeps an owner. */
async function requireAnotherOwner(ctx: ActionContext, member: LockedMember, what: string): Promise<void> {
  if (member.role !== "owner" || (await countOwners(ctx.tx, ctx.orgId)) > 1) return;
  const who = member.userId === ctx.userId ? "You are" : `${member.name} is`;
  throw new UserFacingError(`${who} the organization's last owner, so ${what}. Make someone else an owner first, or transfer ownership.`);
}

/** An invitation as the dialog shows it once: its link, and whether it replaced an open one. */
export interface Invited {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  url: string;
  replaced: boolean;
}

type ChangedMember = { userId: string; name: string };

const memberTarget = (member: { userId: string; name: string }) => ({ type: "member" as const, id: member.userId, name: member.name });

/** An invitation link, shown once; a new invitation to the same email replaces the open one. */
export async function inviteMember(
  { email, role }: z.output<typeof inviteMemberInput>,
  ctx: ActionContext,
): Promise<Change<Invited, Invited & { mail: MailOutcome }>> {
  const { actor: inviter, orgName } = await lockMembers(ctx);
  requireManageable(inviter.role, role, "role");
  if (await isMemberEmail(ctx.tx, ctx.orgId, email)) {
    const message = `${email} is already a member of this organization.`;
    throw new UserFacingError(message, { email: [message] });
  }
  const replaced = await revokeOpenInvitationFor(ctx.tx, ctx.orgId, email, ctx.userId);
  const { token, hash } = mintInvitationToken();
  const id = newId("ivt");
  const expiresAt = new Date(Date.now() + INVITATION_LIFETIME_DAYS * 86_400_000);
  await insertInvitation(ctx.tx, { id, orgId: ctx.orgId, email, role, tokenHash: hash, invitedBy: ctx.userId, expiresAt });
  const url = `${await publicBaseUrl()}${invitationPath(token)}`;
  const invited: Invited = { id, email, role, expiresAt: expiresAt.toISOString(), url, replaced: replaced !== null };
  return {
    data: invited,
    activity: {
      action: "invitation.created",
      target: { type: "invitation", id, name: email },
      after: { email, role, expiresAt: expiresAt.toISOString(), ...(replaced ? { replaces: replaced } : {}) },
    },
    // After the commit: the link works when the mail arrives, and no lock waits on the SMTP server.
    afterCommit: async () => ({ ...invited, mail: await mailInvitation({ to: email, orgName, inviterName: inviter.name, role, url, expiresAt }) }),
  };
}

export async function revokeInvitation({ invitationId }: z.output<typeof invitationInput>, ctx: ActionContext): Promise<Change<{ id: string; email: string }>> {
  const { actor } = await lockMembers(ctx);
  const invitation = await lockOpenInvitation(ctx.tx, ctx.orgId, invitationId);
  if (!invitation) throw new UserFacingError("This invitation was already accepted, revoked or replaced.");
  requireManageable(actor.role, invitation.role);
  await markInvitationRevoked(ctx.tx, invitation.id, ctx.userId);
  return {
    data: { id: invitation.id, email: invitation.email },
    activity: {
      action: "invitation.revoked",
      target: { type: "invitation", id: invitation.id, name: invitation.email },
      before: { status: "pending", role: invitation.role },
      after: { status: "revoked" },
    },
  };
}

/** Re-role: the acting user must be able to manage both the member's role and the new one. */
export async function changeMemberRole(
  { userId, role }: z.output<typeof changeMemberRoleInput>,
  ctx: ActionContext,
): Promise<Change<ChangedMember & { role: Role }>> {
  const { actor } = await lockMembers(ctx);
  const member = await memberOf(ctx, userId);
  requireManageable(actor.role, member.role);
  requireManageable(actor.role, role, "role");
  if (member.role === role) throw new UserFacingError(`${member.name} is already ${ROLE_INFO[role].withArticle}.`);
  if (role !== "owner") await requireAnotherOwner(ctx, member, "cannot stop being an owner");
  await setMemberRole(ctx.tx, ctx.orgId, member.userId, role);
  return {
    data: { userId: member.userId, name: member.name, role },
    activity: { action: "member.role_changed", target: memberTarget(member), before: { role: member.role }, after: { role } },
  };
}

/** Removing someone else; removing yourself is leaving. */
export async function removeMember({ userId }: z.output<typeof memberInput>, ctx: ActionContext): Promise<Change<ChangedMember>> {
  if (userId === ctx.userId) throw new UserFacingError("To remove yourself, leave the organization.");
  const { actor } = await lockMembers(ctx);
  const member = await memberOf(ctx, userId);
  requireManageable(actor.role, member.role);
  await requireAnotherOwner(ctx, member, "cannot be removed");
  await deleteMember(ctx.tx, ctx.orgId, member.userId);
  return {
    data: { userId: member.userId, name: member.name },
    activity: { action: "member.removed", target: memberTarget(member), before: { role: member.role, email: member.email } },
  };
}

export async function leaveOrganization(_input: z.output<typeof leaveOrganizationInput>, ctx: ActionContext): Promise<Change<{ userId: string }>> {
  const { actor: member } = await lockMembers(ctx);
  await requireAnotherOwner(ctx, member, "cannot leave");
  await deleteMember(ctx.tx, ctx.orgId, member.userId);
  return { data: { userId: member.userId }, activity: { action: "member.left", target: memberTarget(member), before: { role: member.role } } };
}

/** An owner hands ownership to another member and becomes an admin, in one change. */
export async function transferOwnership({ userId }: z.output<typeof memberInput>, ctx: ActionContext): Promise<Change<ChangedMember>> {
  if (userId === ctx.userId) throw new UserFacingError("Choose another member to transfer ownership to.");
  const { actor: self } = await lockMembers(ctx);
  if (self.role !== "owner") throw new UserFacingError(roleDeniedMessage("owner"));
  const member = await memberOf(ctx, userId);
  if (member.role === "owner") throw new UserFacingError(`${member.name} is already an owner.`);
  await setMemberRole(ctx.tx, ctx.orgId, member.userId, "owner");
  await setMemberRole(ctx.tx, ctx.orgId, ctx.userId, "admin");
  return {
    data: { userId: member.userId, name: member.name },
    activity: [
      { action: "member.role_changed", target: memberTarget(member), before: { role: member.role }, after: { role: "owner", via: "ownership transfer" } },
      { action: "member.role_changed", target: memberTarget(self), before: { role: "owner" }, after: { role: "admin", via: "ownership transfer" } },
    ],
  };
}
