import type { LogEvent } from "@/core/log-streams";
import { DeliveryError, type Destination, type DestinationOf } from "./destination";
import { SOURCE_NAME } from "./event-record";
import { answerJson, postTo, refusal, succeeded, type GuardedAnswer } from "./http-post";
import { eventMessage, eventSeverity, type Severity } from "./message";
import { keyValues, type KeyValue } from "./otlp-values";

/**
 * An OpenTelemetry collector over OTLP/HTTP with the JSON encoding (docs/features/log-streams.md#otlp;
 * https://opentelemetry.io/docs/specs/otlp/#otlphttp): one ExportLogsServiceRequest a batch, POSTed
 * to `<endpoint>/v1/logs`.
 */

export const OTLP_SCOPE = "invoicing.log-streams";

/** SeverityNumber and SeverityText (https://opentelemetry.io/docs/specs/otel/logs/data-model/#field-severitynumber): INFO, WARN, ERROR. */
const SEVERITY: Record<Severity, { severityNumber: number; severityText: string }> = {
  info: { severityNumber: 9, severityText: "INFO" },
  warn: { severityNumber: 13, severityText: "WARN" },
  error: { severityNumber: 17, severityText: "ERROR" },
};

/** The logs URL: the signal's path after the base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT does; one already ending in it is taken as it is. */
export function otlpLogsUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith("/v1/logs") ? path : `${path}/v1/logs`;
  return url;
}

/** Milliseconds since the epoch as OTLP's fixed64 nanoseconds, which its JSON writes as a decimal string. */
function unixNano(ms: number): string {
  return (BigInt(ms) * 1_000_000n).toString();
}

/**
 * A request's fields also under the semantic conventions' names (https://opentelemetry.io/docs/specs/semconv/http/),
 * so a backend that knows HTTP shows them as HTTP.
 */
function httpAttributes(event: LogEvent): Record<string, unknown> {
  if (event.type !== "request") return {};
  const { method, path, status } = event.data;
  return { "http.request.method": method, "url.path": path, "http.response.status_code": status };
}

/**
 * One LogRecord. The event's name is in the `eventName` field and, for receivers built on the
 * protocol before that field (they drop unknown fields), in the `event.name` attribute too. `data`
 * stays structured, a kvlistValue with typed values, not a JSON string: a collector's processors
 * and the backends that flatten maps can read `status` as the number it is.
 */
export function otlpLogRecord(event: LogEvent, observedAt: number): Record<string, unknown> {
  const eventName = `${SOURCE_NAME}.${event.type}`;
  return {
    timeUnixNano: unixNano(Date.parse(event.occurredAt)),
    observedTimeUnixNano: unixNano(observedAt),
    ...SEVERITY[eventSeverity(event)],
    body: { stringValue: eventMessage(event) },
    eventName,
    attributes: keyValues({
      "event.name": eventName,
      "log.record.uid": event.id,
      "invoicing.event.type": event.type,
      "invoicing.organization_id": event.organizationId,
      ...(event.livemode === null ? {} : { "invoicing.livemode": event.livemode }),
      ...httpAttributes(event),
      "invoicing.data": event.data,
    }),
  };
}

/** The ExportLogsServiceRequest: one resource (this service), one scope, the records in order. */
export function otlpRequest(events: LogEvent[], observedAt: number): { resourceLogs: unknown[] } {
  const resource: { attributes: KeyValue[] } = { attributes: keyValues({ "service.name": SOURCE_NAME }) };
  return { resourceLogs: [{ resource, scopeLogs: [{ scope: { name: OTLP_SCOPE }, logRecords: events.map((event) => otlpLogRecord(event, observedAt)) }] }] };
}

/**
 * A 200 with `partialSuccess.rejectedLogRecords` above 0: the rest was taken, and the protocol
 * forbids sending the request again.
 */
function partialFailure(answer: GuardedAnswer, sent: number): DeliveryError | null {
  const partial = (answerJson(answer) as { partialSuccess?: { rejectedLogRecords?: unknown; errorMessage?: unknown } } | null)?.partialSuccess;
  const rejected = Number(partial?.rejectedLogRecords ?? 0);
  if (!Number.isFinite(rejected) || rejected <= 0) return null;
  const reason = typeof partial?.errorMessage === "string" && partial.errorMessage.trim() ? `: ${partial.errorMessage.trim().replace(/\.$/, "")}` : "";
  const cause = new Error(`HTTP ${answer.status}: ${answer.text.slice(0, 500)}`);
  return new DeliveryError(
    `The collector rejected ${rejected} of ${sent} log records${reason}.`,
    { status: answer.status, retryable: false, taken: true },
    { cause },
  );
}

/**
 * What a refusal means, as the protocol says (https://opentelemetry.io/docs/specs/otlp/#retryable-response-codes):
 * 429, 502, 503 and 504 are retried, honouring Retry-After; any other 4xx or 5xx must not be.
 */
function otlpRefusal(answer: GuardedAnswer): DeliveryError {
  const retryable = [429, 502, 503, 504].includes(answer.status);
  if (answer.status === 401 || answer.status === 403) return refusal("The collector refused the stream's headers", answer, false);
  if (answer.status === 400) return refusal("The collector could not read the logs", answer, false);
  return refusal("The collector did not take the logs", answer, retryable);
}

export function otlpDestination({ settings, secrets }: DestinationOf<"otlp">): Destination {
  const url = otlpLogsUrl(settings.endpoint);
  // The configured headers first, so none of them can replace the content type the body is in.
  const headers = { ...secrets.headers, "content-type": "application/json", "user-agent": "Invoicing-LogStreams/1.0" };
  return async (batch) => {
    const body = JSON.stringify(otlpRequest(batch.events, Date.now()));
    const answer = await postTo("the collector", url, headers, body, batch.signal);
    if (!succeeded(answer)) throw otlpRefusal(answer);
    const partial = partialFailure(answer, batch.events.length);
    if (partial) throw partial;
  };
}
