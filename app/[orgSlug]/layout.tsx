import { countUnreadAlerts, listAlerts } from "@/db/queries/alerts";
import { listMemberships } from "@/db/queries/organizations";
import { getUser } from "@/db/queries/users";
import { signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { markAlertsReadAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { AppHeader } from "@/components/app-header";
import { SkipLink } from "@/components/skip-link";
import { can } from "@/lib/authz";
import { requireOrgAccess } from "@/lib/org-access";

/** How many of the newest alerts the bell lists; the Alerts page has the rest. */
const BELL_ALERTS = 20;

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug);
  const seesAlerts = can(membership.role, "alerts.view");
  const [user, memberships, recent, unread] = await Promise.all([
    getUser(userId),
    listMemberships(userId),
    seesAlerts ? listAlerts(membership.orgId, userId, BELL_ALERTS) : [],
    seesAlerts ? countUnreadAlerts(membership.orgId, userId) : 0,
  ]);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <AppHeader
        current={membership}
        organizations={memberships}
        user={{ name: user?.name ?? "", email: user?.email ?? "" }}
        signOut={{ here: signOutAction, everywhere: signOutEverywhereAction }}
        alerts={seesAlerts ? { recent, unread, markRead: markAlertsReadAction } : null}
      />
      <div className="flex-1">{children}</div>
    </div>
  );
}
