import { MailWarning } from "lucide-react";
import type { Metadata } from "next";
import { getEmailPreferences } from "@/db/queries/notifications";
import { getUser } from "@/db/queries/users";
import { mailEnabled } from "@/lib/notifications/queue";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { requireOrgAccess } from "@/lib/org-access";
import { EmailPreferencesForm } from "./email-preferences-form";

export const metadata: Metadata = { title: "Email notifications" };

/** Which alerts also reach this person by email, in this organization. Each person chooses for themself. */
export default async function NotificationsPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug, "alerts.view");
  const [preferences, user] = await Promise.all([getEmailPreferences(membership.orgId, userId), getUser(userId)]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Email notifications"
        description={`Alerts always show under the bell. Choose which also come to ${user?.email ?? "you"} by email, for ${membership.orgName} only. Every email has a one-click unsubscribe link.`}
      />
      {mailEnabled() ? null : (
        <Alert variant="warning" role="status">
          <MailWarning aria-hidden />
          <AlertTitle>Email is not set up on this server</AlertTitle>
          <AlertDescription>
            <p>No email is sent until an administrator sets SMTP_URL. Your choices are kept for then.</p>
          </AlertDescription>
        </Alert>
      )}
      <EmailPreferencesForm orgId={membership.orgId} preferences={preferences} />
    </div>
  );
}
