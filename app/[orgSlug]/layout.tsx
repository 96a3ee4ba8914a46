import { signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { markAlertsReadAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { beginPasskeyProofAction, confirmIdentityAction } from "@/app/settings/security/actions";
import { DashboardShell } from "@/components/dashboard-shell";
import { requireOrgAccess } from "@/lib/org-access";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug);
  return (
    <DashboardShell userId={userId} membership={membership} actions={{ signOut: { here: signOutAction, everywhere: signOutEverywhereAction }, markAlertsRead: markAlertsReadAction, sudoMode: { confirmIdentity: confirmIdentityAction, beginPasskeyProof: beginPasskeyProofAction } }}>
      {children}
    </DashboardShell>
  );
}
