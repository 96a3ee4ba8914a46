import { listMemberships } from "@/db/queries/organizations";
import { getUser } from "@/db/queries/users";
import { signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { AppHeader } from "@/components/app-header";
import { requireOrgAccess } from "@/lib/org-access";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug);
  const [user, memberships] = await Promise.all([getUser(userId), listMemberships(userId)]);
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader
        current={membership}
        organizations={memberships}
        user={{ name: user?.name ?? "", email: user?.email ?? "" }}
        signOut={{ here: signOutAction, everywhere: signOutEverywhereAction }}
      />
      <div className="flex-1">{children}</div>
    </div>
  );
}
