import type { AlertKind, WebhookEventType } from "@/core/enums";
import type { DbOrTx } from "@/db";
import {
  insertBudgetAlerts,
  insertKeyExpiryAlerts,
  insertKeyLeakedAlert,
  insertLogStreamBacklogAlert,
  insertQuotaAlerts,
  insertRateLimitAlert,
  insertWebhookDisabledAlert,
  type RaisedAlert,
} from "@/db/queries/alert-inserts";
import { queueAlertEmails } from "@/lib/notifications/queue";
import { enqueueSlackAlerts, enqueueWebhookEvent } from "@/lib/webhooks/queue";

/**
 * Raising the alerts (docs/features/alerts.md): each kind's statement (db/queries/alert-inserts.ts)
 * inserts only what its period has not seen, so callers may ask as often as they like; what it
 * raised is sent, in the same transaction, as a webhook event, Slack messages and emails.
 */

export type { RaisedAlert };

/** The webhook event each alert is sent as (a turned-off endpoint and a log stream's dropped events are alerts only). */
const EVENT_OF: Partial<Record<AlertKind, WebhookEventType>> = {
  quota_threshold: "usage.quota_threshold",
  budget_threshold: "key.budget_threshold",
  rate_limited: "usage.rate_limited",
  key_expiring: "key.expiring",
  key_expired: "key.expired",
  key_leaked: "key.leaked",
};

/**
 * Inserts alerts and, in the same transaction, queues their webhook events, Slack messages and emails: an alert
 * is sent exactly when it is raised.
 */
async function raise(db: DbOrTx, insert: (tx: DbOrTx) => Promise<RaisedAlert[]>, at: Date): Promise<RaisedAlert[]> {
  return db.transaction(async (tx) => {
    const raised = await insert(tx);
    for (const alert of raised) {
      const type = EVENT_OF[alert.kind];
      if (type)
        await enqueueWebhookEvent(
          tx,
          alert.orgId,
          { type, mode: alert.mode, data: { alertId: alert.id, ...(alert.apiKeyId ? { keyId: alert.apiKeyId } : {}), ...alert.details } },
          at,
        );
    }
    // A test key's alerts are the dashboard's and its test endpoints' (docs/features/test-mode.md#webhooks):
    // no one is paged in Slack or by email about a CI run's key.
    const live = raised.filter((alert) => alert.mode === "live");
    await enqueueSlackAlerts(tx, live, at);
    await queueAlertEmails(tx, live, at);
    return raised;
  });
}

/** The thresholds (percent) of `thresholds` that `calls` has reached under `quota`. */
export function quotaThresholdsReached(quota: number, calls: number, thresholds: readonly number[]): number[] {
  return thresholds.filter((threshold) => calls >= Math.ceil((quota * threshold) / 100));
}

/** The month's quota thresholds that `thresholds` names and the month has not raised yet (`month` is "YYYY-MM-01"). */
export async function raiseQuotaAlerts(db: DbOrTx, alert: Parameters<typeof insertQuotaAlerts>[1]): Promise<RaisedAlert[]> {
  if (alert.thresholds.length === 0) return [];
  return raise(db, (tx) => insertQuotaAlerts(tx, alert), alert.at);
}

/** The budget thresholds of a key's period that `thresholds` names and the period has not raised yet. */
export async function raiseBudgetAlerts(db: DbOrTx, alert: Parameters<typeof insertBudgetAlerts>[1]): Promise<RaisedAlert[]> {
  if (alert.thresholds.length === 0) return [];
  return raise(db, (tx) => insertBudgetAlerts(tx, alert), alert.at);
}

/** A key refused for its rate limit more often than its organization's threshold, once per key and UTC hour. */
export async function raiseRateLimitAlert(db: DbOrTx, alert: Parameters<typeof insertRateLimitAlert>[1]): Promise<RaisedAlert[]> {
  return raise(db, (tx) => insertRateLimitAlert(tx, alert), alert.at);
}

/** Keys expiring soon and keys that have expired, once per key and expiry. Run by the maintenance timer and at start-up. */
export async function raiseKeyExpiryAlerts(db: DbOrTx, now = new Date()): Promise<RaisedAlert[]> {
  return raise(db, (tx) => insertKeyExpiryAlerts(tx, now), now);
}

/** An endpoint turned off by its failing streak, once per streak; run it in the transaction that turns it off. */
export async function raiseWebhookDisabledAlert(db: DbOrTx, alert: Parameters<typeof insertWebhookDisabledAlert>[1]): Promise<RaisedAlert[]> {
  return raise(db, (tx) => insertWebhookDisabledAlert(tx, alert), alert.at);
}

/** A key a secret scanner found in public, once per key; run it in the transaction that acts on the report. */
export async function raiseKeyLeakedAlert(db: DbOrTx, alert: Parameters<typeof insertKeyLeakedAlert>[1]): Promise<RaisedAlert[]> {
  return raise(db, (tx) => insertKeyLeakedAlert(tx, alert), alert.at);
}

/** A log stream's events dropped by the backlog rule, once per stream and UTC day; run it in the transaction that drops them. */
export async function raiseLogStreamBacklogAlert(db: DbOrTx, alert: Parameters<typeof insertLogStreamBacklogAlert>[1]): Promise<RaisedAlert[]> {
  return raise(db, (tx) => insertLogStreamBacklogAlert(tx, alert), alert.at);
}
