"use server";

import { orgAction } from "@/lib/action";
import { changeMemberRole, inviteMember, leaveOrganization, removeMember, revokeInvitation, transferOwnership } from "@/lib/members/changes";
import { changeMemberRoleInput, invitationInput, inviteMemberInput, leaveOrganizationInput, memberInput } from "@/lib/members/input";
import { twoFactorRequirementInput } from "@/lib/security/input";
import { changeTwoFactorRequirement } from "@/lib/security/two-factor-requirement";

// Each membership change as the dashboard calls it: its input, who may, whether sudo mode guards it (roles, and the security requirement), and the rule in lib/members/changes.ts.
// Every change that grants or takes someone's role asks, whatever the role: an invitation a stale
// session could send unasked would bring in a person of the sender's choosing (an owner, whose
// fresh session then asks nothing), and one as a member would outlast "Sign out everywhere".
// Leaving asks nothing: it takes only the person's own access.
export const inviteMemberAction = orgAction(inviteMemberInput, "members.manage", inviteMember, { sudo: true });
export const revokeInvitationAction = orgAction(invitationInput, "members.manage", revokeInvitation, { sudo: true });
export const changeMemberRoleAction = orgAction(changeMemberRoleInput, "members.manage", changeMemberRole, { sudo: true });
export const removeMemberAction = orgAction(memberInput, "members.manage", removeMember, { sudo: true });
export const leaveOrganizationAction = orgAction(leaveOrganizationInput, "members.leave", leaveOrganization);
export const transferOwnershipAction = orgAction(memberInput, "members.manage_admins", transferOwnership, { sudo: true });
export const setTwoFactorRequirementAction = orgAction(twoFactorRequirementInput, "security.manage", changeTwoFactorRequirement, { sudo: true });
