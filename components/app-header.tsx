import { BookOpen } from "lucide-react";
import Link from "next/link";
import type { AlertDto } from "@/db/queries/alerts";
import type { MembershipDto } from "@/db/queries/organizations";
import { AlertBell, type MarkAlertsReadAction } from "@/components/alert-bell";
import { Logo } from "@/components/logo";
import { OrgSwitcher } from "@/components/org-switcher";
import { TestModeSwitch } from "@/components/test-mode";
import { UserMenu, type SignOutAction } from "@/components/user-menu";

/**
 * The account menu's and the bell's actions come from the route (app/(auth)/actions.ts,
 * app/[orgSlug]/settings/alerts/actions.ts): components do not import app/. `alerts` is null for
 * a role that does not see them (guests).
 */
export function AppHeader({
  current,
  organizations,
  user,
  signOut,
  alerts,
}: {
  current: MembershipDto;
  organizations: MembershipDto[];
  user: { name: string; email: string };
  signOut: { here: SignOutAction; everywhere: SignOutAction };
  alerts: { recent: AlertDto[]; unread: number; markRead: MarkAlertsReadAction } | null;
}) {
  return (
    <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-14 w-full max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        <Logo href={`/${current.orgSlug}/settings/api`} markOnlyOnPhone />
        <span className="shrink-0 text-muted-foreground/50" aria-hidden>
          /
        </span>
        <OrgSwitcher
          current={{ slug: current.orgSlug, name: current.orgName, plan: current.plan, role: current.role }}
          organizations={organizations.map((m) => ({ slug: m.orgSlug, name: m.orgName, plan: m.plan, role: m.role }))}
        />
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          <TestModeSwitch />
          {/* Not prefetched: the reference is another part of the site, seldom the next page. */}
          <Link
            href="/docs"
            prefetch={false}
            className="hidden items-center gap-1.5 rounded-md px-2 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground sm:flex"
          >
            <BookOpen className="size-4" aria-hidden />
            API docs
          </Link>
          {alerts ? (
            <AlertBell orgId={current.orgId} orgSlug={current.orgSlug} alerts={alerts.recent} unread={alerts.unread} markRead={alerts.markRead} />
          ) : null}
          <UserMenu name={user.name} email={user.email} signOutAction={signOut.here} signOutEverywhereAction={signOut.everywhere} />
        </div>
      </div>
    </header>
  );
}
