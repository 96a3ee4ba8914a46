import { countUnreadAlerts, listAlerts } from "@/db/queries/alerts";
import { listMemberships, type MembershipDto } from "@/db/queries/organizations";
import { getUser } from "@/db/queries/users";
import { AppHeader } from "@/components/app-header";
import type { MarkAlertsReadAction } from "@/components/alert-bell";
import { SkipLink } from "@/components/skip-link";
import { TestModeBanner } from "@/components/test-mode";
import type { SudoModeActions } from "@/components/identity-confirmation-dialog";
import { SudoModeBoundary } from "@/components/sudo-mode-boundary";
import { Toaster } from "@/components/ui/sonner";
import type { SignOutAction } from "@/components/user-menu";
import { can } from "@/lib/authz";

/** How many of the newest alerts the bell lists; the Alerts page has the rest. */
const BELL_ALERTS = 20;

/**
 * The dashboard around a page: the header with the organization switcher, the bell (for roles
 * that see alerts) and the account menu, and sudo mode's question for every sensitive change
 * under it (docs/security.md#sudo-mode), and the toasts that say how a change went. The organization's pages and the person's own account pages share it; the
 * actions come from the route (components do not import app/).
 */
export async function DashboardShell({
  userId,
  membership,
  actions,
  children,
}: {
  userId: string;
  membership: MembershipDto;
  actions: { signOut: { here: SignOutAction; everywhere: SignOutAction }; markAlertsRead: MarkAlertsReadAction; sudoMode: SudoModeActions };
  children: React.ReactNode;
}) {
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
        signOut={actions.signOut}
        alerts={seesAlerts ? { recent, unread, markRead: actions.markAlertsRead } : null}
      />
      <TestModeBanner />
      <div className="flex-1">
        <SudoModeBoundary userId={userId} actions={actions.sudoMode}>
          {children}
        </SudoModeBoundary>
      </div>
      <Toaster />
    </div>
  );
}
