import { ROLE_VALUES, type Role } from "@/core/enums";
import { can, PERMISSIONS, type Permission } from "@/core/permissions";
import type { MembershipDto } from "@/db/queries/organizations";

export { can, type Permission };
export const ROLES: readonly Role[] = ROLE_VALUES;

/** What each permission lets its holders do, worded for "Only owners can …" and "Guests cannot …". */
const ACTIONS: Record<Exclude<Permission, "keys.view" | "members.leave">, string> = {
  "audit.view": "view or export the audit log",
  "usage.view": "view or export the organization's API usage",
  "requests.inspect": "watch the live tail or open a request's details",
  "keys.create": "create API keys",
  "keys.revoke": "revoke API keys",
  "keys.rename": "rename API keys",
  "keys.restrict": "change what an API key may do",
  "keys.budget": "set an API key's budget",
  "keys.roll": "roll API keys",
  "keys.policy": "set the key policy",
  "plan.manage": "change the plan and rate limit",
  "activity.view": "view or export the activity history",
  "alerts.view": "see the organization's alerts",
  "notifications.manage": "change alert settings and webhooks",
  "log_streams.manage": "see and change the log streams",
  "members.view": "see the organization's members",
  "members.manage": "invite, re-role or remove members",
  "members.manage_admins": "invite, re-role or remove admins and owners",
  "security.manage": "change the organization's security requirements",
  "sso.manage": "set up single sign-on",
  "test_data.delete": "delete the organization's test data",
};

const ROLE_PLURALS: Record<Role, string> = { owner: "owners", admin: "admins", member: "members", guest: "guests" };

function inWords(roles: readonly Role[]): string {
  const plurals = roles.map((role) => ROLE_PLURALS[role]);
  return plurals.length > 1 ? `${plurals.slice(0, -1).join(", ")} and ${plurals.at(-1)}` : (plurals[0] ?? "nobody");
}

const sentence = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/** Who holds `permission`, in words read from the table: "owners", "owners and admins", "owners, admins and members". */
export function holdersOf(permission: Permission): string {
  return inWords(PERMISSIONS[permission]);
}

/** "Only owners can change the key policy.": a sentence on a page, read from the table. */
export function onlyHoldersCan(permission: Permission, action: string): string {
  return `Only ${holdersOf(permission)} can ${action}.`;
}

/** "Owners and admins can invite people to this organization.": the same, said as what they can do. */
export function holdersCan(permission: Permission, action: string): string {
  return sentence(`${holdersOf(permission)} can ${action}.`);
}

/** The refusal of `permission` to a role without it, worded from the table. */
export function deniedMessage(permission: Permission): string {
  // Everyone in an organization holds these: the refusal is that the person is not in it.
  if (permission === "keys.view") return "You do not have access to this organization's API keys.";
  if (permission === "members.leave") return "You are not a member of this organization.";
  const refused = ROLES.filter((role) => !can(role, permission));
  return refused.length === 1 ? sentence(`${inWords(refused)} cannot ${ACTIONS[permission]}.`) : onlyHoldersCan(permission, ACTIONS[permission]);
}

/**
 * Whether `actor` may invite someone as `role`, or re-role or remove someone who has it.
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

/** What keeps a member out before any permission, for the page to send them where they can fix it. */
export type MembershipRequirement = "two_factor" | "sso";

/**
 * Why a member may not act in their organization, or null when they may: kept out by its
 * two-factor requirement (docs/features/two-factor.md#requiring-it-for-everyone) or, outside a
 * session its provider made, its single sign-on requirement (docs/features/sso.md#requiring-it),
 * before any permission; otherwise lacking `permission`. Pages, routes, actions and the live tail
 * all decide by this one rule.
 */
export function membershipRefusal(
  membership: MembershipDto,
  session: { ssoOrgId: string | null },
  permission?: Permission,
): { message: string; requires?: MembershipRequirement } | null {
  if (membership.ssoRequired && session.ssoOrgId !== membership.orgId)
    return { message: `${membership.orgName} requires single sign-on. Sign in with SSO to continue.`, requires: "sso" };
  if (membership.needsTwoFactor)
    return { message: `${membership.orgName} requires two-factor authentication. Set it up under Security to continue.`, requires: "two_factor" };
  if (permission && !can(membership.role, permission)) return { message: deniedMessage(permission) };
  return null;
}
