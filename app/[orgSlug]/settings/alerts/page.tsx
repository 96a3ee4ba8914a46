import { Bell } from "lucide-react";
import type { Metadata } from "next";
import { getAlertSettings, listAlerts } from "@/db/queries/alerts";
import { AlertList } from "@/components/alert-list";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { can } from "@/lib/authz";
import { requireOrgAccess } from "@/lib/org-access";
import { PLANS } from "@/lib/plans/catalog";
import { AlertSettingsForm } from "./alert-settings-form";
import { SlackChannels } from "./slack-channels";
import { listWebhookEndpoints } from "@/db/queries/webhooks";

export const metadata: Metadata = { title: "Alerts" };

/** The newest alerts the page lists: a period raises each once, so this is months of them. */
const PAGE_ALERTS = 100;

export default async function AlertsPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug, "alerts.view");
  const mayManage = can(membership.role, "notifications.manage");
  const [settings, alerts, slackChannels] = await Promise.all([
    getAlertSettings(membership.orgId),
    listAlerts(membership.orgId, userId, PAGE_ALERTS),
    mayManage ? listWebhookEndpoints(membership.orgId, undefined, "slack") : null,
  ]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Alerts"
        description="Know before the monthly quota or a key's budget runs out, when a key keeps hitting its rate limit, and before a key expires."
      />
      <AlertSettingsForm orgId={membership.orgId} settings={settings} canManage={mayManage} quota={PLANS[membership.plan].monthlyCalls} />
      {slackChannels ? <SlackChannels orgId={membership.orgId} orgSlug={orgSlug} channels={slackChannels} /> : null}
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Recent alerts</CardTitle>
        </CardHeader>
        <CardContent>
          {alerts.length === 0 ? (
            <EmptyState
              icon={<Bell aria-hidden />}
              title="No alerts yet"
              description="When calls reach a quota threshold, a key uses 80 % or all of its budget, a key is refused for its rate limit in a burst, or a key is about to expire, it shows up here and under the bell."
            />
          ) : (
            <>
              <AlertList alerts={alerts} orgSlug={orgSlug} />
              {alerts.length === PAGE_ALERTS ? <p className="pt-3 text-sm text-muted-foreground">The newest {PAGE_ALERTS} alerts.</p> : null}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
