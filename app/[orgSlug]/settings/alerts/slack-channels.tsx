import { ChevronRight, Hash } from "lucide-react";
import Link from "next/link";
import type { WebhookEndpointDto } from "@/db/queries/webhooks";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SLACK_CHANNELS_MAX } from "@/core/enums";
import { EndpointStatus } from "../webhooks/endpoint-status";
import { AddSlackChannelForm } from "./add-slack-channel-form";

/** Owners and admins: the organization's Slack channels, each getting every alert as a message, and the form that adds one. */
export function SlackChannels({ orgId, orgSlug, channels }: { orgId: string; orgSlug: string; channels: WebhookEndpointDto[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Hash className="size-4 text-primary" aria-hidden /> Slack
        </CardTitle>
        <CardDescription>
          Every alert is also posted to these channels, with the key it names and a link. Paste a Slack incoming-webhook URL (or any service that takes
          Slack&apos;s format, such as Mattermost or Discord&apos;s /slack URLs). Messages are retried for 24 hours and logged.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {channels.length > 0 ? (
          <ul aria-label="Slack channels" className="divide-y rounded-md border">
            {channels.map((channel) => (
              <li key={channel.id}>
                <Link href={`/${orgSlug}/settings/webhooks/${channel.id}`} className="flex items-center justify-between gap-4 px-3 py-3 hover:bg-muted/50">
                  <span className="grid min-w-0 gap-0.5">
                    <span className="truncate text-sm font-medium">{channel.description || "Slack channel"}</span>
                    <span className="truncate font-mono text-xs text-muted-foreground">{channel.url}</span>
                  </span>
                  <span className="flex shrink-0 items-center gap-3 text-sm text-muted-foreground">
                    <span className="hidden sm:inline">
                      {channel.deliveries.lastAt ? (
                        <>
                          Last message <RelativeTime value={channel.deliveries.lastAt} />
                        </>
                      ) : (
                        "No messages yet"
                      )}
                    </span>
                    <EndpointStatus endpoint={channel} />
                    <ChevronRight className="size-4" aria-hidden />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {channels.length < SLACK_CHANNELS_MAX ? (
          <AddSlackChannelForm orgId={orgId} />
        ) : (
          <p className="text-sm text-muted-foreground">{SLACK_CHANNELS_MAX} channels is the most an organization can have.</p>
        )}
      </CardContent>
    </Card>
  );
}
