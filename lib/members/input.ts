import { z } from "zod";
import { ROLE_VALUES } from "@/core/enums";
import { emailSchema, idSchema, orgIdSchema } from "@/lib/input-rules";

/** What the Members page's forms send (docs/features/members.md). */
const roleSchema = z.enum(ROLE_VALUES, { error: "Choose a role: owner, admin, member or guest." });
export const inviteMemberInput = z.object({ orgId: orgIdSchema, email: emailSchema, role: roleSchema });
export const invitationInput = z.object({ orgId: orgIdSchema, invitationId: idSchema });
export const memberInput = z.object({ orgId: orgIdSchema, userId: idSchema });
export const changeMemberRoleInput = memberInput.extend({ role: roleSchema });
export const leaveOrganizationInput = z.object({ orgId: orgIdSchema });
