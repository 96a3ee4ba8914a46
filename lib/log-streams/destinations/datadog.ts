import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { LOG_STREAM_BATCH_MAX, LOG_STREAM_BATCH_MAX_BYTES, type LogEvent } from "@/core/log-streams";
import type { Destination, DestinationOf } from "./destination";
import { SOURCE_NAME, sourceHost } from "./event-record";
import { postTo, refusal, succeeded, type GuardedAnswer } from "./http-post";
import { eventMessage, eventSeverity } from "./message";

/**
 * Datadog's logs intake, v2 (docs/features/log-streams.md#datadog;
 * https://docs.datadoghq.com/api/latest/logs/send-logs/): a gzipped JSON array of entries, at most
 * 1,000 entries and 5 MB uncompressed a request; a batch larger than that goes in several requests,
 * in order.
 */

/** Datadog takes a log dated at most 18 hours back (https://docs.datadoghq.com/logs/log_configuration/processors/log_date_remapper/). */
const DATE_WINDOW_MS = 18 * 3_600_000;
/** Kept from the window's edge, for the time a request takes and clocks that differ. */
const DATE_MARGIN_MS = 30 * 60_000;

/** Gzip off the event loop: a 5 MB body takes tens of milliseconds. */
const gzipped = promisify(gzip);

export function datadogIntakeUrl(settings: DestinationOf<"datadog">["settings"]): URL {
  return new URL(settings.intakeUrl ?? `https://http-intake.logs.${settings.site}/api/v2/logs`);
}

/**
 * One entry: Datadog's reserved attributes, then the event's fields as attributes. An event older
 * than Datadog takes (after a long outage) carries no `timestamp`: Datadog dates it on arrival
 * rather than refusing it, and `occurred_at` always says when it happened.
 */
export function datadogEntry(event: LogEvent, host: string | null, now: number): Record<string, unknown> {
  const tags = [event.livemode === null ? null : `env:${event.livemode ? "live" : "test"}`, `source:${event.type}`].filter(Boolean).join(",");
  const dated = now - Date.parse(event.occurredAt) < DATE_WINDOW_MS - DATE_MARGIN_MS;
  return {
    ddsource: SOURCE_NAME,
    service: SOURCE_NAME,
    ddtags: tags,
    ...(host ? { hostname: host } : {}),
    message: eventMessage(event),
    status: eventSeverity(event),
    ...(dated ? { timestamp: event.occurredAt } : {}),
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt,
    organization_id: event.organizationId,
    livemode: event.livemode,
    data: event.data,
  };
}

/**
 * The request bodies for `entries`, in order: each a JSON array of at most `maxEntries` entries
 * and `maxBytes` bytes (an entry larger than that alone goes alone; Datadog truncates it).
 */
export function datadogBodies(entries: unknown[], maxEntries = LOG_STREAM_BATCH_MAX, maxBytes = LOG_STREAM_BATCH_MAX_BYTES): string[] {
  const bodies: string[] = [];
  let part: string[] = [];
  let bytes = 2;
  for (const entry of entries) {
    const json = JSON.stringify(entry);
    const size = Buffer.byteLength(json) + 1;
    if (part.length > 0 && (part.length === maxEntries || bytes + size > maxBytes)) {
      bodies.push(`[${part.join(",")}]`);
      part = [];
      bytes = 2;
    }
    part.push(json);
    bytes += size;
  }
  if (part.length > 0) bodies.push(`[${part.join(",")}]`);
  return bodies;
}

/**
 * What an answer other than a 2xx means. Datadog's docs retry 408, 429 and 5xx; its own Agent
 * also gives up on 400, 401, 403 and 413 and retries everything else
 * (https://docs.datadoghq.com/agent/guide/agent-retry/): a bad format, a bad key or a payload too
 * large stays so however often it is sent.
 */
function datadogRefusal(answer: GuardedAnswer) {
  switch (answer.status) {
    case 400:
      return refusal("Datadog could not read the logs", answer, false);
    case 401:
      return refusal("Datadog asked for an API key", answer, false);
    case 403:
      return refusal("Datadog refused the API key", answer, false);
    case 413:
      return refusal("Datadog refused the request as too large", answer, false);
    default:
      return refusal("Datadog did not take the logs", answer, true);
  }
}

export function datadogDestination({ settings, secrets }: DestinationOf<"datadog">): Destination {
  const url = datadogIntakeUrl(settings);
  const headers = { "content-type": "application/json", "content-encoding": "gzip", "dd-api-key": secrets.apiKey, "user-agent": "Invoicing-LogStreams/1.0" };
  return async (batch) => {
    const host = sourceHost();
    const now = Date.now();
    for (const body of datadogBodies(batch.events.map((event) => datadogEntry(event, host, now)))) {
      const answer = await postTo("Datadog", url, headers, await gzipped(body), batch.signal);
      if (!succeeded(answer)) throw datadogRefusal(answer);
    }
  };
}
