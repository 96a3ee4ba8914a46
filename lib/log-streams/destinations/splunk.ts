import type { LogEvent } from "@/core/log-streams";
import type { Destination, DestinationOf } from "./destination";
import { eventRecordBytes, SOURCE_NAME, sourceHost } from "./event-record";
import { answerJson, postTo, refusal, retryableStatus, succeeded, type GuardedAnswer } from "./http-post";

/**
 * Splunk's HTTP Event Collector (docs/features/log-streams.md#splunk;
 * https://help.splunk.com/en/splunk-enterprise/get-data-in/collect-http-event-data/format-events-for-http-event-collector):
 * the batch in one request to `/services/collector/event`, one JSON envelope per event, one a line.
 */

/**
 * The collector's URL from the base URL the stream names; one that already ends in the
 * collector's path (pasted from Splunk's docs) is taken as it is.
 */
export function splunkCollectorUrl(base: string): URL {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith("/services/collector/event")) url.pathname = path;
  else if (path.endsWith("/services/collector")) url.pathname = `${path}/event`;
  else url.pathname = `${path}/services/collector/event`;
  return url;
}

const NEWLINE = Buffer.from("\n");
const CLOSE = Buffer.from("}");

/**
 * The body: HEC's envelope for each event, a line each (the time in epoch seconds with
 * milliseconds, where it comes from, the event as `_json`), the event's record as
 * eventRecordBytes made it, so an event another stream also carries is not serialized again.
 */
export function splunkBody(events: LogEvent[], host: string | null): Buffer {
  const parts: Buffer[] = [];
  for (const [i, event] of events.entries()) {
    if (i > 0) parts.push(NEWLINE);
    const envelope = { time: Date.parse(event.occurredAt) / 1000, ...(host ? { host } : {}), source: SOURCE_NAME, sourcetype: "_json" };
    parts.push(Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},"event":`), eventRecordBytes(event), CLOSE);
  }
  return Buffer.concat(parts);
}

/** HEC's answer: `{"text": "…", "code": n}` (https://help.splunk.com/en/splunk-enterprise/get-data-in/collect-http-event-data/troubleshoot-http-event-collector). */
function hecAnswer(answer: GuardedAnswer): { text: string | null; code: number | null } {
  const json = answerJson(answer) as { text?: unknown; code?: unknown } | null;
  return { text: typeof json?.text === "string" ? json.text : null, code: typeof json?.code === "number" ? json.code : null };
}

/**
 * What a refusal means. A token refused (401, 403) or a request HEC cannot take (400: no data,
 * invalid data format, an index the token may not write, …) stays so until the stream changes;
 * the collector busy (503, code 9) or failing (500) passes, as any 408 or 429 would.
 */
function splunkRefusal(answer: GuardedAnswer) {
  const { text, code } = hecAnswer(answer);
  const reason = text && code !== null ? `${text}, code ${code}` : text;
  if (answer.status === 401 || answer.status === 403) return refusal("Splunk refused the HEC token", answer, false, reason);
  if (answer.status === 400) return refusal("Splunk refused the events", answer, false, reason);
  if (answer.status === 503) return refusal("Splunk's collector is busy", answer, true, reason);
  return refusal("Splunk did not take the events", answer, retryableStatus(answer.status), reason);
}

export function splunkDestination({ settings, secrets }: DestinationOf<"splunk">): Destination {
  const url = splunkCollectorUrl(settings.url);
  const headers = { "content-type": "application/json", authorization: `Splunk ${secrets.token}`, "user-agent": "Invoicing-LogStreams/1.0" };
  return async (batch) => {
    const body = splunkBody(batch.events, sourceHost());
    const answer = await postTo("Splunk", url, headers, body, batch.signal);
    if (!succeeded(answer)) throw splunkRefusal(answer);
  };
}
