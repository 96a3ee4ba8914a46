import { DASHBOARD_ACTIONS, SUDO_MODE_ACTIONS } from "@/app/dashboard-actions";
import { DashboardShell } from "@/components/dashboard-shell";
import { Logo } from "@/components/logo";
import { SettingsFrame } from "@/components/settings-frame";
import { SudoModeBoundary } from "@/components/sudo-mode-boundary";
import { Toaster } from "@/components/ui/sonner";
import { landingMembership, currentUserId } from "@/lib/session";
import { redirectToSignIn } from "@/lib/sign-in-redirect";

export const dynamic = "force-dynamic";

/**
 * The person's own settings, outside any organization: shown in the frame of the organization they
 * used last. It reads no organization's access rules, so a person an organization's two-factor
 * requirement keeps out still reaches it (docs/features/two-factor.md#requiring-it-for-everyone).
 */
export default async function AccountSettingsLayout({ children }: { children: React.ReactNode }) {
  const membership = await landingMembership();
  const userId = await currentUserId();
  if (!userId) return redirectToSignIn();
  if (!membership) {
    return (
      <div className="mx-auto w-full max-w-3xl space-y-8 px-4 py-6 sm:px-6">
        <Logo />
        <main>
          <SudoModeBoundary userId={userId} actions={SUDO_MODE_ACTIONS}>
            {children}
          </SudoModeBoundary>
        </main>
        <Toaster />
      </div>
    );
  }
  return (
    <DashboardShell userId={userId} membership={membership} actions={DASHBOARD_ACTIONS}>
      <SettingsFrame orgSlug={membership.orgSlug} role={membership.role}>
        {children}
      </SettingsFrame>
    </DashboardShell>
  );
}
