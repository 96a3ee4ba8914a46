import { signedHeaders } from "@/lib/webhooks/deliver";
import type { Batch, Destination, DestinationOf } from "./destination";
import { eventRecordBytes } from "./event-record";
import { postTo, refusal, retryableStatus, succeeded } from "./http-post";

/**
 * A signed HTTPS endpoint (docs/features/log-streams.md#https): the batch as one Standard Webhooks
 * message, signed exactly as webhooks are (docs/features/webhooks.md#delivery), its `webhook-id`
 * the batch's id, the same on every retry, so a receiver can drop a batch it already has.
 */

export const LOG_EVENTS_TYPE = "log_events";

const COMMA = Buffer.from(",");
const END = Buffer.from("]}}");

/**
 * The body: Standard Webhooks' `{ type, timestamp, data }`, the events in order in `data.events`,
 * each event's record as eventRecordBytes made it, so a batch another stream also carries is not
 * serialized and encoded again.
 */
export function httpsBody(batch: Pick<Batch, "streamId" | "events">, at: Date): Buffer {
  const head = `{"type":${JSON.stringify(LOG_EVENTS_TYPE)},"timestamp":${JSON.stringify(at.toISOString())},"data":{"stream_id":${JSON.stringify(batch.streamId)},"events":[`;
  const parts: Buffer[] = [Buffer.from(head)];
  for (const [i, event] of batch.events.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(eventRecordBytes(event));
  }
  parts.push(END);
  return Buffer.concat(parts);
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
