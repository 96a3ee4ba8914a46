import type { Role } from "./enums";

/** Who may do what, cell by cell, in one place (docs/features/members.md#what-each-role-may-do). */
export const PERMISSIONS = {
  "keys.view": ["owner", "admin", "member", "guest"],
  "audit.view": ["owner", "admin", "member"],
  "usage.view": ["owner", "admin", "member"],
  "requests.inspect": ["owner", "admin", "member"],
  "keys.create": ["owner", "admin"],
  "keys.revoke": ["owner"],
  "keys.rename": ["owner", "admin"],
  "keys.restrict": ["owner", "admin"],
  "keys.budget": ["owner", "admin"],
  "keys.roll": ["owner"],
  "keys.policy": ["owner"],
  "plan.manage": ["owner"],
  "activity.view": ["owner", "admin", "member"],
  "alerts.view": ["owner", "admin", "member"],
  "notifications.manage": ["owner", "admin"],
  "log_streams.manage": ["owner", "admin"],
  "members.view": ["owner", "admin", "member"],
  "members.manage": ["owner", "admin"],
  "members.manage_admins": ["owner"],
  "members.leave": ["owner", "admin", "member", "guest"],
  "security.manage": ["owner"],
  "sso.manage": ["owner"],
  "test_data.delete": ["owner"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The roles holding `permission`, highest first: what a query filters memberships by. */
export function rolesWith(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}
