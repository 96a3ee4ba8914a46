import type { AlertKind } from "@/core/enums";
import { camelCase } from "@/core/key-case";
import type { LogEvent } from "@/core/log-streams";
import { activityLabel } from "@/lib/activity";
import { describeAlert } from "@/lib/alerts/text";

/**
 * The one line a log tool shows for an event (docs/features/log-streams.md#events): Datadog's
 * `message`, an OTLP record's body, a `message` beside the fields elsewhere. Each says what its
 * page in the dashboard says: the audit log's request line, the activity history's label, the
 * alert's title, so a reader finds the same words in both places.
 *
 * The fields read from `data` (snake_case, as lib/log-streams/events.ts writes them):
 * - request: `method`, `path`, `status`, `duration_ms`, `error_code`, `api_key_id`, `key_name`;
 * - activity: `action`, `actor_kind` ("user" | "system"), `actor_email`, `target_name`;
 * - alert: `title` when the reader wrote it, else `kind`, `key_id`, `key_name` and the alert's
 *   figures (`threshold`, `quota`, `calls`, `month`, …), from which lib/alerts/text.ts words it.
 */

type Data = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value : typeof value === "number" ? String(value) : null;
}

/** "GET /v1/invoices 200 in 12 ms (key “Billing server” key_…)", a refusal with its code after the status. */
function requestMessage(data: Data): string {
  const status = [text(data.status), text(data.error_code)].filter(Boolean).join(" ");
  const duration = typeof data.duration_ms === "number" ? ` in ${Math.round(data.duration_ms)} ms` : "";
  const name = text(data.key_name);
  const key = [name && `“${name}”`, text(data.api_key_id)].filter(Boolean).join(" ");
  return `${text(data.method) ?? "?"} ${text(data.path) ?? "?"} ${status || "?"}${duration}${key ? ` (key ${key})` : ""}`;
}

/** "admin@acme.test: Key revoked “CI”": who, the activity history's label, what. */
function activityMessage(data: Data): string {
  const actor = data.actor_kind === "system" ? "System" : (text(data.actor_email) ?? "A deleted user");
  const target = text(data.target_name);
  return `${actor}: ${activityLabel(text(data.action) ?? "activity")}${target ? ` “${target}”` : ""}`;
}

/** The alert's title as the dashboard words it (lib/alerts/text.ts), from its snake_case fields. */
function alertTitle(data: Data): string {
  const { kind, key_id: keyId, key_name: keyName, ...figures } = data;
  const details = Object.fromEntries(
    Object.entries(figures)
      .filter((entry): entry is [string, string | number] => typeof entry[1] === "string" || typeof entry[1] === "number")
      .map(([name, value]) => [camelCase(name), value]),
  );
  const apiKey = typeof keyId === "string" ? { id: keyId, name: text(keyName) ?? keyId } : null;
  const alert = { id: 0, kind: kind as AlertKind, createdAt: "", read: false, apiKey, details };
  // An alert kind newer than this code has no words here yet: its name still says what it is.
  return describeAlert(alert, "")?.title ?? String(kind);
}

/** The event's line. */
export function eventMessage(event: LogEvent): string {
  if (event.type === "request") return requestMessage(event.data);
  if (event.type === "activity") return activityMessage(event.data);
  if (event.type === "test") return `Test event: ${text(event.data.message) ?? "the log stream reaches this destination."}`;
  return `Alert: ${text(event.data.title) ?? alertTitle(event.data)}`;
}

export type Severity = "info" | "warn" | "error";

/**
 * How loud an event is: a request by its status (a server error is an error, a refusal a warning),
 * an alert a warning (someone should act), an activity entry or a test event information.
 */
export function eventSeverity(event: LogEvent): Severity {
  if (event.type === "alert") return "warn";
  if (event.type !== "request") return "info";
  const status = Number(event.data.status);
  return status >= 500 ? "error" : status >= 400 ? "warn" : "info";
}
