import { WEBHOOK_DISABLE_AFTER_FAILING_DAYS, type AlertKind, type Mode, type WEBHOOK_TEST_EVENT, type WebhookEventType } from "@/core/enums";
import { newId } from "@/core/ids";
import { withSnakeCaseKeys } from "@/core/key-case";
import type { DbOrTx } from "@/db";
import { executorOf, jobQueue, WEBHOOK_QUEUE } from "@/db/job-queue";
import { enabledSlackChannels, insertDelivery, subscribedEndpointIds, type NewWebhookDelivery } from "@/db/queries/webhook-deliveries";

/**
 * Webhooks (docs/features/webhooks.md): events become one delivery per subscribed endpoint, each queued in the
 * transaction of the change or the alert that caused it, and sent by a worker in every server
 * process with Standard Webhooks signatures, retried with backoff for 24 hours.
 */

/** A delivery is retried for this long after it was queued (or resent). */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** An endpoint that has failed for this long is turned off, with an alert. */
export const DISABLE_AFTER_FAILING_MS = WEBHOOK_DISABLE_AFTER_FAILING_DAYS * 86_400_000;
/**
 * pg-boss's backoff waits about `delay × 2^n` (with jitter) before retry n: from 30 s, the 12th
 * retry falls after 17 to 34 hours, so the 24-hour window, checked at each attempt, ends first.
 */
const RETRY_LIMIT = 12;

/** A job taken by a process that then died is retried this long after it was taken: an attempt lasts at most 10 s. */
const JOB_EXPIRES_SECONDS = 20;

function retryDelaySeconds(): number {
  // The tests' receivers fail on purpose; they wait a second between attempts, not thirty.
  return Number(process.env.WEBHOOK_RETRY_DELAY_SECONDS ?? 30);
}

/** What a job carries: the delivery, and when its 24 hours began (its queuing or its resend). */
export interface DeliveryJob {
  deliveryId: string;
  since: string;
}

export interface WebhookEvent {
  /** An event (docs/features/webhooks.md), the test event, or an alert for a Slack channel (`alert.budget_threshold`). */
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT | `alert.${AlertKind}`;
  /** Named as the code names things (camelCase); sent in snake_case by `webhookPayload`. */
  data: Record<string, unknown>;
}

/** A delivery's body: Standard Webhooks' `{ type, timestamp, data }`. */
export type WebhookPayload = NewWebhookDelivery["payload"];

/**
 * The body every receiver reads, for every event type: its fields in snake_case, as `/v1` names
 * its own (`expires_at`, `actor_user_id`), whatever the code that raised the event calls them.
 */
export function webhookPayload(event: WebhookEvent, at: Date): WebhookPayload {
  return { type: event.type, timestamp: at.toISOString(), data: withSnakeCaseKeys(event.data) as Record<string, unknown> };
}

/** Queues one job for a delivery, in `db`'s transaction: the job exists exactly when the transaction commits. */
export async function queueDelivery(db: DbOrTx, deliveryId: string, since: Date): Promise<void> {
  const boss = await jobQueue();
  const job: DeliveryJob = { deliveryId, since: since.toISOString() };
  await boss.send(WEBHOOK_QUEUE, job, {
    db: executorOf(db),
    retryLimit: RETRY_LIMIT,
    retryDelay: retryDelaySeconds(),
    retryBackoff: true,
    expireInSeconds: JOB_EXPIRES_SECONDS,
  } as never);
}

/** A delivery of `event` to one endpoint, queued. */
export async function createDelivery(db: DbOrTx, orgId: string, endpointId: string, event: WebhookEvent, at: Date): Promise<string> {
  const id = newId("msg");
  await insertDelivery(db, { id, orgId, endpointId, eventType: event.type, payload: webhookPayload(event, at), createdAt: at });
  await queueDelivery(db, id, at);
  return id;
}

/**
 * The event for every enabled endpoint of the organization subscribed to it in the event's mode
 * (docs/features/test-mode.md#webhooks): a test key's events reach test endpoints only. Run it in
 * the change's transaction.
 */
export async function enqueueWebhookEvent(
  db: DbOrTx,
  orgId: string,
  event: WebhookEvent & { type: WebhookEventType; mode: Mode },
  at = new Date(),
): Promise<number> {
  const endpointIds = await subscribedEndpointIds(db, orgId, event.type, event.mode);
  for (const endpointId of endpointIds) await createDelivery(db, orgId, endpointId, event, at);
  return endpointIds.length;
}

/**
 * Every alert just raised, to each of its organization's Slack channels that is on.
 * The delivery names the alert; the worker writes the message when it sends it (lib/webhooks/slack-message.ts).
 */
export async function enqueueSlackAlerts(db: DbOrTx, alerts: { id: number; orgId: string; kind: AlertKind }[], at: Date): Promise<number> {
  if (alerts.length === 0) return 0;
  const channels = await enabledSlackChannels(db, [...new Set(alerts.map((alert) => alert.orgId))]);
  let queued = 0;
  for (const alert of alerts) {
    for (const channel of channels.filter((candidate) => candidate.orgId === alert.orgId)) {
      await createDelivery(db, alert.orgId, channel.id, { type: `alert.${alert.kind}`, data: { alertId: alert.id } }, at);
      queued++;
    }
  }
  return queued;
}
