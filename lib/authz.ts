import { ROLE_VALUES, type Role } from "@/db/enums";

export const ROLES: readonly Role[] = ROLE_VALUES;

/** SPEC §1, cell by cell: the one place that says who may do what. */
const PERMISSIONS = {
  "keys.view": ["owner", "admin", "member", "guest"],
  "audit.view": ["owner", "admin", "member"],
  "keys.create": ["owner", "admin"],
  "keys.revoke": ["owner"],
  "keys.rename": ["owner", "admin"],
  "keys.restrict": ["owner", "admin"],
  "keys.roll": ["owner"],
  "keys.policy": ["owner"],
  "plan.manage": ["owner"],
  "activity.view": ["owner", "admin", "member"],
  "alerts.view": ["owner", "admin", "member"],
  "notifications.manage": ["owner", "admin"],
  "members.view": ["owner", "admin", "member"],
  "members.manage": ["owner", "admin"],
  "members.manage_admins": ["owner"],
  "members.leave": ["owner", "admin", "member", "guest"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

const DENIED: Record<Permission, string> = {
  "keys.view": "You do not have access to this organization's API keys.",
  "audit.view": "Guests cannot view or export the audit log.",
  "keys.create": "Only owners and admins can create API keys.",
  "keys.revoke": "Only owners can revoke API keys.",
  "keys.rename": "Only owners and admins can rename API keys.",
  "keys.restrict": "Only owners and admins can change what an API key may do.",
  "keys.roll": "Only owners can roll API keys.",
  "keys.policy": "Only owners can set the key policy.",
  "plan.manage": "Only owners can change the plan and rate limit.",
  "activity.view": "Guests cannot view or export the activity history.",
  "alerts.view": "Guests cannot see the organization's alerts.",
  "notifications.manage": "Only owners and admins can change alert settings and webhooks.",
  "members.view": "Guests cannot see the organization's members.",
  "members.manage": "Only owners and admins can invite, re-role or remove members.",
  "members.manage_admins": "Only owners can invite, re-role or remove admins and owners.",
  "members.leave": "You are not a member of this organization.",
};

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function deniedMessage(permission: Permission): string {
  return DENIED[permission];
}

/**
 * SPEC §1: whether `actor` may invite someone as `role`, or re-role or remove someone who has it.
 * Admins and owners are the owners' to manage; members and guests also the admins'.
 */
function roleManagedBy(role: Role): Permission {
  return role === "owner" || role === "admin" ? "members.manage_admins" : "members.manage";
}

export function mayManageRole(actor: Role, role: Role): boolean {
  return can(actor, roleManagedBy(role));
}

/** Why `actor` may not manage `role`, for the refusal. */
export function roleDeniedMessage(role: Role): string {
  return deniedMessage(roleManagedBy(role));
}

/** The roles `actor` may grant, highest first: what the invite form and the role select offer. */
export function grantableRoles(actor: Role): Role[] {
  return ROLES.filter((role) => mayManageRole(actor, role));
}
