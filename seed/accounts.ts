import type { Plan, Role } from "@/core/enums";

/**
 * The demo sign-ins the README lists, one per role of Acme plus a trial owner and a person in two
 * organizations, each with the organization a sign-in lands in. The seed creates them; the e2e
 * tests sign in as them.
 */
export const DEMO_PASSWORD = "demo-password";

export const DEMO_ACCOUNTS = {
  owner: { id: "usr_demo_owner", email: "owner@acme.test", name: "Olivia Owens", lands: "acme" },
  admin: { id: "usr_demo_admin", email: "admin@acme.test", name: "Adam Alvarez", lands: "acme" },
  member: { id: "usr_demo_member", email: "member@acme.test", name: "Mia Moreau", lands: "acme" },
  guest: { id: "usr_demo_guest", email: "guest@acme.test", name: "Gus Grant", lands: "acme" },
  trialOwner: { id: "usr_demo_globex", email: "dana@globex.test", name: "Dana Scully", lands: "globex" },
  multi: { id: "usr_demo_multi", email: "alex@studio.test", name: "Alex Kim", lands: "globex" },
} as const;

export const DEMO_USERS = Object.values(DEMO_ACCOUNTS);

/** The demo organizations: Acme on Pro, Globex on its trial, Solo Studio on Solo. */
export const ORGS: { id: string; name: string; slug: string; plan: Plan }[] = [
  { id: "org_demo_acme", name: "Acme Inc", slug: "acme", plan: "pro" },
  { id: "org_demo_globex", name: "Globex", slug: "globex", plan: "trial" },
  { id: "org_demo_solo", name: "Solo Studio", slug: "solo-studio", plan: "solo" },
];

export const MEMBERSHIPS: { orgId: string; userId: string; role: Role }[] = [
  { orgId: "org_demo_acme", userId: "usr_demo_owner", role: "owner" },
  { orgId: "org_demo_acme", userId: "usr_demo_admin", role: "admin" },
  { orgId: "org_demo_acme", userId: "usr_demo_member", role: "member" },
  { orgId: "org_demo_acme", userId: "usr_demo_guest", role: "guest" },
  { orgId: "org_demo_globex", userId: "usr_demo_globex", role: "owner" },
  { orgId: "org_demo_globex", userId: "usr_demo_multi", role: "admin" },
  { orgId: "org_demo_solo", userId: "usr_demo_multi", role: "owner" },
];
