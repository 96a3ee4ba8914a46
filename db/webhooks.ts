import { and, eq, inArray, sql } from "drizzle-orm";
import { WEBHOOK_DISABLE_AFTER_FAILING_DAYS, WEBHOOK_TEST_EVENT, type AlertKind, type WebhookDeliveryStatus, type WebhookEventType } from "@/core/enums";
import { newId } from "@/core/ids";
import { getDb, type DbOrTx, type Tx } from "./index";
import { executorOf, jobQueue, WEBHOOK_QUEUE } from "./job-queue";
import { rowsOf } from "./rows";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "./schema";

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
export type WebhookPayload = (typeof webhookDeliveries.$inferSelect)["payload"];

/** "actorUserId" → "actor_user_id". */
function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `value` with every object key, at any depth, in snake_case. */
function withSnakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSnakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), withSnakeCaseKeys(inner)]));
}

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
  await boss.send(WEBHOOK_QUEUE, job, { db: executorOf(db), retryLimit: RETRY_LIMIT, retryDelay: retryDelaySeconds(), retryBackoff: true, expireInSeconds: JOB_EXPIRES_SECONDS } as never);
}

/** A delivery of `event` to one endpoint, queued. */
export async function createDelivery(db: DbOrTx, orgId: string, endpointId: string, event: WebhookEvent, at: Date): Promise<string> {
  const id = newId("msg");
  await db.insert(webhookDeliveries).values({
    id,
    orgId,
    endpointId,
    eventType: event.type,
    payload: webhookPayload(event, at),
    createdAt: at,
  });
  await queueDelivery(db, id, at);
  return id;
}

/** The event for every enabled endpoint of the organization subscribed to it. Run it in the change's transaction. */
export async function enqueueWebhookEvent(db: DbOrTx, orgId: string, event: WebhookEvent & { type: WebhookEventType }, at = new Date()): Promise<number> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.enabled, true), eq(webhookEndpoints.format, "standard"), sql`${event.type} = any(${webhookEndpoints.eventTypes})`));
  for (const endpoint of endpoints) await createDelivery(db, orgId, endpoint.id, event, at);
  return endpoints.length;
}

/**
 * Every alert just raised, to each of its organization's Slack channels that is on.
 * The delivery names the alert; the worker writes the message when it sends it (lib/webhooks/slack-message.ts).
 */
export async function enqueueSlackAlerts(db: DbOrTx, alerts: { id: number; orgId: string; kind: AlertKind }[], at: Date): Promise<number> {
  if (alerts.length === 0) return 0;
  // One read for every organization of the batch (an expiry run raises alerts across many).
  const channels = await db
    .select({ id: webhookEndpoints.id, orgId: webhookEndpoints.orgId })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.orgId, [...new Set(alerts.map((alert) => alert.orgId))]), eq(webhookEndpoints.enabled, true), eq(webhookEndpoints.format, "slack")));
  let queued = 0;
  for (const alert of alerts) {
    for (const channel of channels.filter((candidate) => candidate.orgId === alert.orgId)) {
      await createDelivery(db, alert.orgId, channel.id, { type: `alert.${alert.kind}`, data: { alertId: alert.id } }, at);
      queued++;
    }
  }
  return queued;
}

/** A queued delivery with what sending it needs: its endpoint's URL, state and secrets. */
export async function findQueuedDelivery(deliveryId: string) {
  const [row] = await getDb()
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, enabled: webhookEndpoints.enabled, format: webhookEndpoints.format, secret: webhookEndpoints.signingSecret, previous: webhookEndpoints.previousSigningSecret, previousEndsAt: webhookEndpoints.previousSecretEndsAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row ?? null;
}

/** Settles a delivery that will not be sent (its endpoint is off). */
export async function skipDelivery(deliveryId: string, why: string): Promise<void> {
  await getDb().update(webhookDeliveries).set({ status: "failed", responseExcerpt: why }).where(eq(webhookDeliveries.id, deliveryId));
}

/** An endpoint a failing streak of WEBHOOK_DISABLE_AFTER_FAILING_DAYS has just turned off. */
export interface TurnedOffEndpoint {
  orgId: string;
  endpointId: string;
  url: string;
  failingSince: Date;
}

/**
 * One attempt in the delivery log (the delivery's last answer and the attempt's own row) and in the
 * endpoint's health, in the caller's transaction. Returns the endpoint if this attempt turned it off.
 */
export async function recordAttempt(
  tx: Tx,
  delivery: { id: string; endpointId: string },
  attempt: { ok: boolean; status: number | null; durationMs: number; excerpt: string },
  status: WebhookDeliveryStatus,
  at: Date,
  finishedAt: Date,
): Promise<TurnedOffEndpoint | null> {
  const answer = { responseStatus: attempt.status, durationMs: attempt.durationMs, responseExcerpt: attempt.excerpt };
  // The row lock of the update numbers attempts one after the other, even for a job retried while its first run still ends.
  const [counted] = await tx
    .update(webhookDeliveries)
    .set({ status, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: at, ...answer })
    .where(eq(webhookDeliveries.id, delivery.id))
    .returning({ orgId: webhookDeliveries.orgId, attempts: webhookDeliveries.attempts });
  if (counted) await tx.insert(webhookDeliveryAttempts).values({ orgId: counted.orgId, deliveryId: delivery.id, attempt: counted.attempts, attemptedAt: at, ...answer });
  return recordEndpointHealth(tx, delivery.endpointId, attempt.ok, finishedAt);
}

/** A success clears the endpoint's failing streak; a failure starts one or, after 5 days of it, turns the endpoint off. */
async function recordEndpointHealth(tx: DbOrTx, endpointId: string, ok: boolean, at: Date): Promise<TurnedOffEndpoint | null> {
  if (ok) {
    await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
    return null;
  }
  const iso = at.toISOString();
  const failing = sql`make_interval(secs => ${DISABLE_AFTER_FAILING_MS / 1000})`;
  const [turnedOff] = rowsOf<{ org_id: string; url: string; failing_since: Date | string; turned_off: boolean }>(
    await tx.execute(sql`
      with endpoint as (
        select id, enabled, coalesce(failing_since, ${iso}::timestamptz) as since from webhook_endpoints where id = ${endpointId} for update
      )
      update webhook_endpoints w set
        failing_since = e.since,
        enabled = w.enabled and e.since > ${iso}::timestamptz - ${failing},
        disabled_reason = case when w.enabled and e.since <= ${iso}::timestamptz - ${failing} then 'failing' else w.disabled_reason end
      from endpoint e where w.id = e.id
      returning w.org_id, w.url, e.since as failing_since, e.enabled and not w.enabled as turned_off`),
  ).filter((row) => row.turned_off);
  return turnedOff ? { orgId: turnedOff.org_id, endpointId, url: turnedOff.url, failingSince: new Date(turnedOff.failing_since) } : null;
}
