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
};

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function deniedMessage(permission: Permission): string {
  return DENIED[permission];
}
