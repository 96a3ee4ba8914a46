import type { Role } from "@/core/enums";

/** How the dashboard names each role, and what it may do (docs/features/members.md#what-each-role-may-do), for the role select and the invite form. */
export const ROLE_INFO: Record<Role, { label: string; withArticle: string; description: string }> = {
  owner: {
    label: "Owner",
    withArticle: "an owner",
    description: "Everything, including revoking and rolling keys, the plan, the key policy, and admins and owners.",
  },
  admin: { label: "Admin", withArticle: "an admin", description: "Creates keys and changes their access, manages webhooks, invites members and guests." },
  member: { label: "Member", withArticle: "a member", description: "Sees keys, usage, the audit log, the activity history and alerts." },
  guest: { label: "Guest", withArticle: "a guest", description: "Sees the API keys and each key's 30-day stats." },
};
