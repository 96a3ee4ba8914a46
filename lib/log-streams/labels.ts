import type { DestinationSettings, LogStreamKind, LogStreamSource } from "@/core/log-streams";

/** How the page and its form name each destination, what it is, and its main credential. */
export const DESTINATION_LABELS: Record<LogStreamKind, { name: string; description: string; credential: string }> = {
  datadog: { name: "Datadog", description: "Datadog Logs, by site and API key.", credential: "API key" },
  splunk: { name: "Splunk", description: "A Splunk HTTP Event Collector, by URL and token.", credential: "HEC token" },
  s3: { name: "Amazon S3", description: "A bucket of S3 or a compatible store (R2, MinIO), as gzipped JSON lines.", credential: "Secret access key" },
  https: { name: "HTTPS", description: "Any HTTPS endpoint, each batch signed like a webhook.", credential: "Signing secret" },
  otlp: { name: "OpenTelemetry", description: "An OTLP/HTTP collector, as OpenTelemetry logs.", credential: "Headers" },
};

export const SOURCE_LABELS: Record<LogStreamSource, { name: string; description: string }> = {
  requests: { name: "Requests", description: "Every API request, with the audit log's fields (never bodies)." },
  activity: { name: "Activity history", description: "Every change to keys, members and settings, and who made it." },
  alerts: { name: "Alerts", description: "Quota, budget, rate-limit, expiry and leak alerts." },
};

/** Where the destination is, as the history and the page say it. */
export function destinationSummary(settings: DestinationSettings): string {
  switch (settings.kind) {
    case "datadog":
      return settings.intakeUrl ?? settings.site;
    case "s3":
      return `s3://${settings.bucket}/${settings.prefix ? `${settings.prefix}/` : ""} (${settings.region})`;
    case "otlp":
      return settings.endpoint;
    default:
      return settings.url;
  }
}
