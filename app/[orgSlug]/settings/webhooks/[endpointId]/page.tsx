import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { WEBHOOK_DISABLE_AFTER_FAILING_DAYS, WEBHOOK_EVENT_TYPES } from "@/core/enums";
import { looksLikeId } from "@/core/ids";
import { listWebhookDeliveries, listWebhookEndpoints, type WebhookEndpointDto } from "@/db/queries/webhooks";
import { PageHeader } from "@/components/page-header";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { requireOrgAccess } from "@/lib/org-access";
import { EndpointStatus } from "../endpoint-status";
import { DeliveryLog } from "./delivery-log";
import { EndpointControls } from "./endpoint-controls";

export const metadata: Metadata = { title: "Webhook endpoint" };

/** The newest deliveries the log shows. */
const LOG_ROWS = 50;

export default async function WebhookEndpointPage({ params }: { params: Promise<{ orgSlug: string; endpointId: string }> }) {
  const { orgSlug, endpointId } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "notifications.manage");
  if (!looksLikeId("whe", endpointId)) notFound();
  const [endpoint] = await listWebhookEndpoints(membership.orgId, endpointId);
  if (!endpoint) notFound();
  const deliveries = await listWebhookDeliveries(membership.orgId, endpoint.id, LOG_ROWS);
  // A Slack channel (docs/features/notifications.md#slack): every alert as a message; no secret, no event types.
  const slack = endpoint.format === "slack";
  return (
    <div className="space-y-6">
      <PageHeader
        title={<span className="break-all font-mono text-xl">{endpoint.url}</span>}
        description={endpoint.description || undefined}
        actions={
          <EndpointControls
            orgId={membership.orgId}
            orgSlug={orgSlug}
            endpoint={{ id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled, format: endpoint.format }}
          />
        }
      >
        <Link
          href={`/${orgSlug}/settings/${slack ? "alerts" : "webhooks"}`}
          className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden /> {slack ? "Alerts" : "Webhooks"}
        </Link>
      </PageHeader>
      <EndpointFacts endpoint={endpoint} />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Deliveries</CardTitle>
        </CardHeader>
        <CardContent>
          <DeliveryLog orgId={membership.orgId} deliveries={deliveries} canResend={endpoint.enabled} />
        </CardContent>
      </Card>
    </div>
  );
}

/** The endpoint's status, and its secret and events (or, for a Slack channel, what it gets). */
function EndpointFacts({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const slack = endpoint.format === "slack";
  return (
    <Card>
      <CardContent className="grid gap-4 text-sm sm:grid-cols-3">
        <div className="space-y-1">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Status</p>
          <div className="flex flex-wrap items-center gap-2">
            <EndpointStatus endpoint={endpoint} />
            {endpoint.failingSince && endpoint.enabled ? (
              <span className="text-muted-foreground">
                since <RelativeTime value={endpoint.failingSince} />; turned off after {WEBHOOK_DISABLE_AFTER_FAILING_DAYS} days
              </span>
            ) : null}
          </div>
        </div>
        {slack ? (
          <div className="space-y-1 sm:col-span-2">
            <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Slack channel</p>
            <p>Gets every alert of the organization as a message. The URL is a credential: only its end is shown.</p>
          </div>
        ) : (
          <>
            <div className="space-y-1">
              <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Signing secret</p>
              <p className="font-mono">{endpoint.secretHint}</p>
              {endpoint.previousSecretEndsAt ? (
                <p className="text-muted-foreground">
                  The previous secret also signs until <RelativeTime value={endpoint.previousSecretEndsAt} />.
                </p>
              ) : null}
            </div>
            <div className="space-y-1">
              <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Events</p>
              <div className="flex flex-wrap gap-1">
                {endpoint.eventTypes.map((type) => (
                  <Badge key={type} variant="secondary" title={WEBHOOK_EVENT_TYPES[type]}>
                    {type}
                  </Badge>
                ))}
              </div>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
