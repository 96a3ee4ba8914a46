"use server";

import { orgAction } from "@/lib/action";
import { changeMemberRole, inviteMember, leaveOrganization, removeMember, revokeInvitation, transferOwnership } from "@/lib/members/changes";
import { changeMemberRoleInput, invitationInput, inviteMemberInput, leaveOrganizationInput, memberInput } from "@/lib/members/input";
import { twoFactorRequirementInput } from "@/lib/security/input";
import { changeTwoFactorRequirement } from "@/lib/security/two-factor-requirement";

// Each membership change as the dashboard calls it: its input, who may, whether sudo mode guards it (SPEC §16: roles, and the security requirement), and the rule in lib/members/changes.ts.
export const inviteMemberAction = orgAction(inviteMemberInput, "members.manage", inviteMember);
export const revokeInvitationAction = orgAction(invitationInput, "members.manage", revokeInvitation);
export const changeMemberRoleAction = orgAction(changeMemberRoleInput, "members.manage", changeMemberRole, { sudo: true });
export const removeMemberAction = orgAction(memberInput, "members.manage", removeMember);
export const leaveOrganizationAction = orgAction(leaveOrganizationInput, "members.leave", leaveOrganization);
export const transferOwnershipAction = orgAction(memberInput, "members.manage_admins", transferOwnership, { sudo: true });
export const setTwoFactorRequirementAction = orgAction(twoFactorRequirementInput, "security.manage", changeTwoFactorRequirement, { sudo: true });
