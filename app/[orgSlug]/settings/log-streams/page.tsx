import { Waves } from "lucide-react";
import type { Metadata } from "next";
import { LOG_STREAMS_MAX } from "@/core/log-streams";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Card } from "@/components/ui/card";
import { logStreamsOverview } from "@/lib/log-streams/overview";
import { requireOrgAccess } from "@/lib/org-access";
import { AddStreamDialog } from "./add-stream-dialog";
import { StreamCard } from "./stream-card";

export const metadata: Metadata = { title: "Log streams" };

export default async function LogStreamsPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug, "log_streams.manage");
  const streams = await logStreamsOverview(membership.orgId);
  const full = streams.length >= LOG_STREAMS_MAX ? `At most ${LOG_STREAMS_MAX} streams: delete one first.` : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Log streams"
        description="Send your audit trail, activity history and alerts to your own Datadog, Splunk, S3 bucket or collector, in order, nothing lost while it is down."
        actions={<AddStreamDialog orgId={membership.orgId} disabledReason={full} />}
      />
      {streams.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Waves aria-hidden />}
            title="No log streams yet"
            description={`Add a stream to keep every API request, every change and every alert in the tools your security team already reads. Up to ${LOG_STREAMS_MAX} per organization.`}
          />
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Log streams">
          {streams.map((stream) => (
            <li key={stream.id}>
              <StreamCard orgId={membership.orgId} stream={stream} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
