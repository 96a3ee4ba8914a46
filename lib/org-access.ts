import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache, type ReactNode } from "react";
import { findMembershipBySlug, type MembershipDto } from "@/db/queries/organizations";
import { getUser } from "@/db/queries/users";
import { membershipRefusal, type MembershipRequirement, type Permission } from "@/lib/authz";
import { currentSession } from "@/lib/session";
import { isSlug } from "@/lib/slug";
import { redirectToSignIn } from "@/lib/sign-in-redirect";

export type OrgAccess =
  | { ok: true; userId: string; membership: MembershipDto }
  | { ok: false; status: 401 | 403 | 404; message: string; requiredBy?: { requirement: MembershipRequirement; membership: MembershipDto } };

// The layout, the page and its loaders all ask; the database answers once per request.
const membershipOf = cache(async (userId: string, slug: string) => (isSlug(slug) ? findMembershipBySlug(userId, slug) : null));

/**
 * Whether the signed-in user may act in the organization of the URL, decided from their
 * membership row in the database on this request. Without a permission: any member.
 */
export async function orgAccess(slug: string, permission?: Permission): Promise<OrgAccess> {
  const session = await currentSession();
  if (!session) return { ok: false, status: 401, message: "Your session has ended. Sign in again." };
  const membership = await membershipOf(session.userId, slug);
  // Another organization's slug is indistinguishable from one that does not exist.
  if (!membership) return { ok: false, status: 404, message: "Not found." };
  const refusal = membershipRefusal(membership, session, permission);
  if (refusal)
    return { ok: false, status: 403, message: refusal.message, ...(refusal.requires ? { requiredBy: { requirement: refusal.requires, membership } } : {}) };
  return { ok: true, userId: session.userId, membership };
}

/** Where a member an organization's two-factor requirement keeps out is taken: their Security page, saying why. */
export function twoFactorSetupPath(orgSlug: string): string {
  return `/settings/security?${new URLSearchParams({ required: orgSlug })}`;
}

/** Where a member an organization's single sign-on requirement keeps out is taken: signing in through its provider, saying why, their email filled in. */
async function ssoSignInPath(orgSlug: string, userId: string): Promise<string> {
  const email = (await getUser(userId))?.email ?? "";
  return `/signin/sso?${new URLSearchParams({ required: orgSlug, callbackUrl: `/${orgSlug}`, email })}`;
}

/**
 * For pages: the signed-in viewer's membership when they may `permission`. Signed out → sign-in;
 * kept out by the organization's two-factor requirement → their Security page, by its single
 * sign-on requirement → signing in with SSO; otherwise a page they may not see does not exist for
 * them (404), as on GitHub.
 */
export async function requireOrgAccess(slug: string, permission?: Permission): Promise<{ userId: string; membership: MembershipDto }> {
  const access = await orgAccess(slug, permission);
  if (access.ok) return access;
  if (access.status === 401) return redirectToSignIn();
  const required = access.requiredBy;
  if (required?.requirement === "sso") redirect(await ssoSignInPath(required.membership.orgSlug, (await currentSession())!.userId));
  if (required) redirect(twoFactorSetupPath(required.membership.orgSlug));
  notFound();
}

/**
 * The layout of a segment only viewers who may `permission` reach. A page's status is sent with
 * its first byte, and a segment's loading.tsx streams before the page renders: the permission is
 * decided here, above that boundary, so a refused page answers 404 and not 200.
 */
export function layoutRequiring(permission: Permission) {
  return async function PermissionLayout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string }> }) {
    await requireOrgAccess((await params).orgSlug, permission);
    return children;
  };
}
