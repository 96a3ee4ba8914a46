import { signedHeaders } from "@/lib/webhooks/deliver";
import type { Batch, Destination, DestinationOf } from "./destination";
import { eventRecord } from "./event-record";
import { postTo, refusal, retryableStatus, succeeded } from "./http-post";

/**
 * A signed HTTPS endpoint (docs/features/log-streams.md#https): the batch as one Standard Webhooks
 * message, signed exactly as webhooks are (docs/features/webhooks.md#delivery), its `webhook-id`
 * the batch's id, the same on every retry, so a receiver can drop a batch it already has.
 */

export const LOG_EVENTS_TYPE = "log_events";

/** The body: Standard Webhooks' `{ type, timestamp, data }`, the events in order in `data.events`. */
export function httpsBody(batch: Pick<Batch, "streamId" | "events">, at: Date): string {
  return JSON.stringify({ type: LOG_EVENTS_TYPE, timestamp: at.toISOString(), data: { stream_id: batch.streamId, events: batch.events.map(eventRecord) } });
}

export function httpsDestination({ settings, secrets }: DestinationOf<"https">): Destination {
  const url = new URL(settings.url);
  return async (batch) => {
    const at = new Date();
    const body = httpsBody(batch, at);
    const headers = {
      ...signedHeaders({ url: settings.url, secrets: [secrets.signingSecret], id: batch.id, body, at }),
      "user-agent": "Invoicing-LogStreams/1.0",
    };
    const answer = await postTo("the endpoint", url, headers, body, batch.signal);
    // A redirect is not followed (as webhooks), and is no delivery: the URL to send to is another.
    if (!succeeded(answer)) throw refusal("The endpoint did not take the events", answer, retryableStatus(answer.status));
  };
}
