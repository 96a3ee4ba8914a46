import type { LogEvent } from "@/core/log-streams";
import type { Batch } from "@/lib/log-streams/destinations/destination";

/**
 * Log events built by hand in the shape lib/log-streams/events.ts writes (db/queries/log-stream-events.ts
 * names the fields): a request of a live key, a test key's refusal, a server error, an activity
 * entry and an alert.
 */

export const ORG_ID = "org_acme";

/** `minutesAgo` before now, to the millisecond. */
export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

export function requestEvent(id: string, overrides: Partial<LogEvent> & { data?: Record<string, unknown> } = {}): LogEvent {
  return {
    id,
    type: "request",
    occurredAt: minutesAgo(5),
    organizationId: ORG_ID,
    livemode: true,
    ...overrides,
    data: {
      request_id: id,
      api_key_id: "key_live",
      key_name: "Billing server",
      method: "GET",
      path: "/v1/invoices",
      endpoint: "GET /v1/invoices",
      status: 200,
      error_code: null,
      duration_ms: 12,
      ip: "203.0.113.10",
      user_agent: "curl/8.5",
      trace_id: null,
      ...overrides.data,
    },
  };
}

export function activityEvent(id: string, data: Record<string, unknown> = {}): LogEvent {
  return {
    id,
    type: "activity",
    occurredAt: minutesAgo(4),
    organizationId: ORG_ID,
    livemode: null,
    data: {
      action: "api_key.revoked",
      actor_kind: "user",
      actor_email: "admin@acme.test",
      target_type: "api_key",
      target_id: "key_ci",
      target_name: "CI",
      before: { status: "active" },
      after: { status: "revoked", reason: "compromised" },
      ip: "203.0.113.10",
      user_agent: "Mozilla/5.0",
      ...data,
    },
  };
}

export function alertEvent(
  id: string,
  data: Record<string, unknown> = { kind: "quota_threshold", threshold: 80, quota: 10_000, calls: 8_000, month: "2026-11" },
): LogEvent {
  return { id, type: "alert", occurredAt: minutesAgo(3), organizationId: ORG_ID, livemode: null, data };
}

/** Five events of every kind, live and test, their ids starting with `tag`, in the order they happened. */
export function eventsOfEveryKind(tag: string): LogEvent[] {
  return [
    requestEvent(`req_${tag}1`),
    requestEvent(`req_${tag}2`, {
      livemode: false,
      data: { method: "POST", status: 429, error_code: "rate_limited", duration_ms: 3, api_key_id: "key_test", key_name: "CI" },
    }),
    requestEvent(`req_${tag}3`, { data: { status: 500, error_code: "internal_error", duration_ms: 48 } }),
    activityEvent(`act_${tag}4`),
    alertEvent(`alert_${tag}5`),
  ];
}

export function batchOf(events: LogEvent[], signal: AbortSignal = new AbortController().signal): Batch {
  return { streamId: "ls_audit", organizationId: ORG_ID, id: `ls_audit-${events[0]?.id ?? "empty"}`, events, signal };
}
