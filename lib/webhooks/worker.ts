import { getDb } from "@/db";
import { raiseWebhookDisabledAlert } from "@/lib/alerts/raise";
import { WEBHOOK_DISABLE_AFTER_FAILING_DAYS } from "@/core/enums";
import { WEBHOOK_QUEUE } from "@/db/job-queue";
import { startJobWorker, type Outcome } from "@/lib/job-worker";
import { findQueuedDelivery, recordAttempt, skipDelivery } from "@/db/queries/webhook-deliveries";
import { DISABLE_AFTER_FAILING_MS, RETRY_WINDOW_MS, type DeliveryJob } from "./queue";
import { sendWebhook } from "./deliver";
import { slackMessage } from "./slack-message";
import { inSpan } from "@/core/tracing";

/** How many deliveries one process sends at once. */
const DELIVERIES_AT_ONCE = 5;

export type { Outcome };

/**
 * One attempt of a queued delivery: sends it, records the attempt in the delivery log and the
 * endpoint's health, and says whether to try again. After 24 hours (or pg-boss's last retry) the
 * delivery has failed; an endpoint failing for 5 days is turned off, with an alert, in the
 * transaction that records the attempt.
 */
export async function attemptDelivery(job: DeliveryJob, options: { lastRetry: boolean; now?: () => Date }): Promise<Outcome> {
  const now = options.now ?? (() => new Date());
  const row = await findQueuedDelivery(job.deliveryId);
  // Deleted with its endpoint, or already settled (a resend queues its own job).
  if (!row || row.delivery.status !== "pending") return "skipped";
  if (!row.enabled) {
    await skipDelivery(job.deliveryId, "Not sent: the endpoint is turned off.");
    return "skipped";
  }
  const at = now();
  const secrets = [row.secret, ...(row.previous && row.previousEndsAt && row.previousEndsAt > at ? [row.previous] : [])];
  // A Slack channel gets the alert as a message (docs/features/notifications.md#slack); an endpoint, the signed event itself.
  const body = row.format === "slack" ? await slackMessage(row.delivery) : JSON.stringify(row.delivery.payload);
  if (body === null) {
    await skipDelivery(job.deliveryId, "Not sent: the alert no longer exists.");
    return "skipped";
  }
  const attempt = await inSpan("POST webhook endpoint", () => sendWebhook({ url: row.url, secrets, id: row.delivery.id, body, at }));
  const finishedAt = now();
  const outOfTime = options.lastRetry || finishedAt.getTime() - new Date(job.since).getTime() >= RETRY_WINDOW_MS;
  const outcome: Outcome = attempt.ok ? "delivered" : outOfTime ? "failed" : "retry";
  const status = outcome === "delivered" ? "succeeded" : outcome === "failed" ? "failed" : "pending";
  await getDb().transaction(async (tx) => {
    const turnedOff = await recordAttempt(tx, row.delivery, attempt, status, { at, finishedAt, disableAfterMs: DISABLE_AFTER_FAILING_MS });
    if (turnedOff) await raiseWebhookDisabledAlert(tx, { ...turnedOff, days: WEBHOOK_DISABLE_AFTER_FAILING_DAYS, at: finishedAt });
  });
  return outcome;
}

/**
 * The process's one consumer of the delivery queue (npm start and npm run start:api alike):
 * up to DELIVERIES_AT_ONCE deliveries at a time; each failed attempt is handed back to pg-boss,
 * which schedules the next with backoff.
 */
export async function startWebhookWorker(): Promise<void> {
  await startJobWorker<DeliveryJob>(WEBHOOK_QUEUE, DELIVERIES_AT_ONCE, attemptDelivery, (job) => `Webhook delivery ${job.deliveryId}`);
}
