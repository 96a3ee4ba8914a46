import { DASHBOARD_ACTIONS } from "@/app/dashboard-actions";
import { DashboardShell } from "@/components/dashboard-shell";
import { requireOrgAccess } from "@/lib/org-access";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug);
  return (
    <DashboardShell userId={userId} membership={membership} actions={DASHBOARD_ACTIONS}>
      {children}
    </DashboardShell>
  );
}
