import { ChevronRight, Webhook } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { WEBHOOK_ENDPOINTS_MAX } from "@/core/enums";
import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { RelativeTime } from "@/components/relative-time";
import { Card } from "@/components/ui/card";
import { requireOrgAccess } from "@/lib/org-access";
import { AddEndpointDialog } from "../add-endpoint-dialog";
import { EndpointStatus } from "../endpoint-status";
import { ModeBadge } from "@/components/mode-badge";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "notifications.manage");
  const endpoints = await listWebhookEndpoints(membership.orgId);
  const full = endpoints.length >= WEBHOOK_ENDPOINTS_MAX ? `At most ${WEBHOOK_ENDPOINTS_MAX} endpoints: delete one first.` : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Send key lifecycle events and alerts to your own servers, signed so they can tell the events are ours."
        actions={<AddEndpointDialog orgId={membership.orgId} disabledReason={full} />}
      />
      {endpoints.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Webhook aria-hidden />}
            title="No endpoints yet"
            description="Add an HTTPS endpoint to be told when keys are created, rolled, revoked or about to expire, and when usage reaches a quota threshold or a key keeps hitting its rate limit."
          />
        </Card>
      ) : (
        <Card className="gap-0 divide-y py-0">
          {endpoints.map((endpoint) => (
            <div key={endpoint.id} className="flex items-center gap-4 px-6 py-4">
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`/${orgSlug}/settings/webhooks/${endpoint.id}`} className="min-w-0 truncate font-mono text-sm font-medium hover:underline">
                    {endpoint.url}
                  </Link>
                  <ModeBadge mode={endpoint.mode} />
                  <EndpointStatus endpoint={endpoint} />
                </div>
                {endpoint.description ? <p className="text-sm text-muted-foreground">{endpoint.description}</p> : null}
                <p className="text-xs text-muted-foreground">
                  {endpoint.eventTypes.length} {endpoint.eventTypes.length === 1 ? "event" : "events"} · {endpoint.deliveries.total.toLocaleString("en-US")}{" "}
                  deliveries
                  {endpoint.deliveries.failed ? `, ${endpoint.deliveries.failed.toLocaleString("en-US")} failed` : ""}
                  {endpoint.deliveries.lastAt ? (
                    <>
                      {" "}
                      · last <RelativeTime value={endpoint.deliveries.lastAt} />
                    </>
                  ) : null}
                </p>
              </div>
              <Link
                href={`/${orgSlug}/settings/webhooks/${endpoint.id}`}
                className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
                aria-label={`Deliveries of ${endpoint.url}`}
              >
                Deliveries <ChevronRight className="size-4" aria-hidden />
              </Link>
            </div>
          ))}
        </Card>
      )}
    </div>
  );
}
