/** Log streams (docs/features/log-streams.md): the audit trail, activity and alerts sent to an organization's own tools. */

/** Where a stream sends its events. */
export const LOG_STREAM_KIND_VALUES = ["datadog", "splunk", "s3", "https", "otlp"] as const;
export type LogStreamKind = (typeof LOG_STREAM_KIND_VALUES)[number];

/** What a stream carries: the request log (the audit log's fields), the activity history, alerts. */
export const LOG_STREAM_SOURCE_VALUES = ["requests", "activity", "alerts"] as const;
export type LogStreamSource = (typeof LOG_STREAM_SOURCE_VALUES)[number];

/** Streams an organization may have. */
export const LOG_STREAMS_MAX = 3;
/** At most this many events go in one batch (Datadog's intake takes 1,000 entries a request). */
export const LOG_STREAM_BATCH_MAX = 1_000;
/** Datadog's intake takes at most 5 MB a request; every destination keeps under it. */
export const LOG_STREAM_BATCH_MAX_BYTES = 5_000_000;
/** Events older than this when still undelivered are dropped, oldest first, with an alert saying how many. */
export const LOG_STREAM_BACKLOG_DAYS = 7;

/** Datadog's sites, by the name its docs give each (https://docs.datadoghq.com/getting_started/site/). */
export const DATADOG_SITES = ["datadoghq.com", "us3.datadoghq.com", "us5.datadoghq.com", "datadoghq.eu", "ap1.datadoghq.com", "ddog-gov.com"] as const;
export type DatadogSite = (typeof DATADOG_SITES)[number];

/**
 * One event as every destination receives it. `id` is the same on every delivery of it, so a
 * destination (or its reader) can drop the copies at-least-once delivery may send.
 */
export interface LogEvent {
  /** The request's id (`req_…`), `act_<id>` for an activity entry, `alert_<id>` for an alert, `lst_…` for "Send test event". */
  id: string;
  type: "request" | "activity" | "alert" | "test";
  /** ISO 8601, UTC, milliseconds. */
  occurredAt: string;
  organizationId: string;
  /** Requests: their key's mode; activity and alerts belong to the organization, not a mode. */
  livemode: boolean | null;
  /** The fields the audit log, the activity history or the alert shows, in snake_case. */
  data: Record<string, unknown>;
}

/**
 * What a stream's destination is, without its credentials (shown on the page, stored in clear),
 * by kind. The credentials are apart (`DestinationSecrets`), stored sealed.
 */
export type DestinationSettings =
  | {
      kind: "datadog";
      site: DatadogSite;
      /** A Datadog-compatible intake instead of the site's (Observability Pipelines, Vector, a test receiver). */ intakeUrl: string | null;
    }
  | { kind: "splunk"; /** The HTTP Event Collector's base URL, e.g. https://splunk.example.com:8088. */ url: string }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      /** An S3-compatible service's endpoint (R2, MinIO, …); null for AWS. */ endpoint: string | null;
      prefix: string | null;
    }
  | { kind: "https"; url: string }
  | { kind: "otlp"; /** The OTLP/HTTP base URL; logs go to `<endpoint>/v1/logs`. */ endpoint: string };

export type DestinationSecrets =
  | { kind: "datadog"; apiKey: string }
  | { kind: "splunk"; token: string }
  | { kind: "s3"; accessKeyId: string; secretAccessKey: string }
  | { kind: "https"; signingSecret: string }
  | { kind: "otlp"; /** Sent with every request, e.g. an Authorization or a vendor's key header. */ headers: Record<string, string> };
