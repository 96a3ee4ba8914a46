import type { LogEvent } from "@/core/log-streams";
import { configuredBaseUrl } from "@/lib/link-base";
import { eventMessage } from "./message";

/** What every destination names itself as: Datadog's `ddsource` and `service`, Splunk's `source`, OTLP's `service.name`. */
export const SOURCE_NAME = "invoicing";

/**
 * One event as the destinations without a format of their own carry it (Splunk's `event`, an S3
 * line, the HTTPS body's `events`): its fields in snake_case as `/v1` names its own, and its line.
 */
export interface EventRecord {
  id: string;
  type: LogEvent["type"];
  occurred_at: string;
  organization_id: string;
  livemode: boolean | null;
  message: string;
  data: Record<string, unknown>;
}

export function eventRecord(event: LogEvent): EventRecord {
  return {
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt,
    organization_id: event.organizationId,
    livemode: event.livemode,
    message: eventMessage(event),
    data: event.data,
  };
}

const encodedRecords = new WeakMap<LogEvent, Buffer>();

/**
 * An event's record as UTF-8 JSON, made once however many streams carry the event: the streams of
 * an organization share their request events within a turn (lib/log-streams/events.ts), and the
 * HTTPS and S3 destinations join these bytes rather than serializing and encoding every batch
 * whole (docs/performance.md#log-streams-cost-on-the-request-path).
 */
export function eventRecordBytes(event: LogEvent): Buffer {
  let bytes = encodedRecords.get(event);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(eventRecord(event)));
    encodedRecords.set(event, bytes);
  }
  return bytes;
}

/**
 * The host the events come from, for Datadog's `hostname` and Splunk's `host`: the address this
 * service is reached at (PUBLIC_BASE_URL), never the machine's own name; none when it is not set.
 */
export function sourceHost(): string | null {
  const base = configuredBaseUrl();
  if (!base) return null;
  try {
    return new URL(base).hostname;
  } catch {
    return null;
  }
}
