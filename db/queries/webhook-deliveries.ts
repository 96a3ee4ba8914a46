import { and, eq, inArray, sql } from "drizzle-orm";
import type { Mode, WebhookDeliveryStatus } from "@/core/enums";
import { getDb, type DbOrTx, type Tx } from "@/db";
import { rowsOf } from "@/db/rows";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "@/db/schema";
import { deliveryAddress } from "@/db/webhook-credentials";
import { webhookCredentials } from "@/core/sealed-secret";

/** The statements of webhook deliveries; when they are queued, retried and turned off is lib/webhooks/queue.ts's rule. */

/** A delivery's row as it is first written. */
export type NewWebhookDelivery = Pick<typeof webhookDeliveries.$inferInsert, "id" | "orgId" | "endpointId" | "eventType" | "payload" | "createdAt">;

export async function insertDelivery(db: DbOrTx, delivery: NewWebhookDelivery): Promise<void> {
  await db.insert(webhookDeliveries).values(delivery);
}

/** The enabled Standard Webhooks endpoints of the organization's `mode` subscribed to `eventType`. */
export async function subscribedEndpointIds(db: DbOrTx, orgId: string, eventType: string, mode: Mode): Promise<string[]> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.orgId, orgId),
        eq(webhookEndpoints.mode, mode),
        eq(webhookEndpoints.enabled, true),
        eq(webhookEndpoints.format, "standard"),
        sql`${eventType} = any(${webhookEndpoints.eventTypes})`,
      ),
    );
  return endpoints.map((endpoint) => endpoint.id);
}

/** The Slack channels that are on, of every organization in `orgIds` (one read for a batch that spans many). */
export async function enabledSlackChannels(db: DbOrTx, orgIds: string[]): Promise<{ id: string; orgId: string }[]> {
  return db
    .select({ id: webhookEndpoints.id, orgId: webhookEndpoints.orgId })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.orgId, orgIds), eq(webhookEndpoints.enabled, true), eq(webhookEndpoints.format, "slack")));
}

/**
 * A queued delivery with what sending it needs: its endpoint's state, and its address and secrets
 * opened (docs/security.md#secrets-at-rest). The sender's read, the one that returns credentials.
 */
export async function findQueuedDelivery(deliveryId: string) {
  const [row] = await getDb()
    .select({
      delivery: webhookDeliveries,
      url: webhookEndpoints.url,
      sealedUrl: webhookEndpoints.sealedUrl,
      enabled: webhookEndpoints.enabled,
      format: webhookEndpoints.format,
      secret: webhookEndpoints.signingSecret,
      previous: webhookEndpoints.previousSigningSecret,
      previousEndsAt: webhookEndpoints.previousSecretEndsAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) return null;
  const { url, sealedUrl, secret, previous, ...rest } = row;
  return {
    ...rest,
    url: deliveryAddress({ url, sealedUrl, format: row.format }),
    secret: webhookCredentials.open(secret),
    previous: previous === null ? null : webhookCredentials.open(previous),
  };
}

/** Settles a delivery that will not be sent (its endpoint is off). */
export async function skipDelivery(deliveryId: string, why: string): Promise<void> {
  await getDb().update(webhookDeliveries).set({ status: "failed", responseExcerpt: why }).where(eq(webhookDeliveries.id, deliveryId));
}

/** An endpoint a failing streak has just turned off. */
export interface TurnedOffEndpoint {
  orgId: string;
  endpointId: string;
  /** As shown: a Slack channel's hint, never its URL (the alert keeps it). */
  url: string;
  failingSince: Date;
}

/** One attempt's outcome, as the delivery log keeps it. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  excerpt: string;
}

/**
 * One attempt in the delivery log (the delivery's last answer and the attempt's own row) and in the
 * endpoint's health, in the caller's transaction: an endpoint failing for `disableAfterMs` is
 * turned off. Returns the endpoint if this attempt turned it off.
 */
export async function recordAttempt(
  tx: Tx,
  delivery: { id: string; endpointId: string },
  attempt: AttemptOutcome,
  status: WebhookDeliveryStatus,
  times: { at: Date; finishedAt: Date; disableAfterMs: number },
): Promise<TurnedOffEndpoint | null> {
  const answer = { responseStatus: attempt.status, durationMs: attempt.durationMs, responseExcerpt: attempt.excerpt };
  // The row lock of the update numbers attempts one after the other, even for a job retried while its first run still ends.
  const [counted] = await tx
    .update(webhookDeliveries)
    .set({ status, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: times.at, ...answer })
    .where(eq(webhookDeliveries.id, delivery.id))
    .returning({ orgId: webhookDeliveries.orgId, attempts: webhookDeliveries.attempts });
  if (counted)
    await tx
      .insert(webhookDeliveryAttempts)
      .values({ orgId: counted.orgId, deliveryId: delivery.id, attempt: counted.attempts, attemptedAt: times.at, ...answer });
  return recordEndpointHealth(tx, delivery.endpointId, attempt.ok, times.finishedAt, times.disableAfterMs);
}

/** A success clears the endpoint's failing streak; a failure starts one or, after `disableAfterMs` of it, turns the endpoint off. */
async function recordEndpointHealth(tx: DbOrTx, endpointId: string, ok: boolean, at: Date, disableAfterMs: number): Promise<TurnedOffEndpoint | null> {
  if (ok) {
    await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
    return null;
  }
  const iso = at.toISOString();
  const failing = sql`make_interval(secs => ${disableAfterMs / 1000})`;
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
