import "server-only";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import type { Mode, WebhookDeliveryStatus, WebhookEventType, WebhookFormat } from "@/core/enums";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "@/db/schema";
import { webhookCredentials } from "@/core/sealed-secret";
import { storedAddress } from "@/db/webhook-credentials";

/** An endpoint as the Webhooks page shows it: never its secret or a Slack channel's URL, only their last characters. */
export interface WebhookEndpointDto {
  id: string;
  /** A Slack channel's URL is a credential: only its hint (core/slack-url-hint.ts), as stored in its place. */
  url: string;
  format: WebhookFormat;
  description: string;
  eventTypes: WebhookEventType[];
  /** Whose events it receives: live or test keys' (docs/features/test-mode.md#webhooks). */
  mode: Mode;
  enabled: boolean;
  disabledReason: "manual" | "failing" | null;
  failingSince: string | null;
  createdAt: string;
  secretHint: string;
  /** The previous secret still signs until then, after a rotation. */
  previousSecretEndsAt: string | null;
  deliveries: { total: number; failed: number; lastAt: string | null };
}

export interface WebhookDeliveryDto {
  id: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseExcerpt: string | null;
  payload: string;
  /** Each attempt's answer, the first first. */
  attemptLog: WebhookAttemptDto[];
}

export interface WebhookAttemptDto {
  attempt: number;
  attemptedAt: string;
  /** Null when no answer came (refused address, timeout, connection). */
  responseStatus: number | null;
  durationMs: number;
  /** The start of the answer's body, or what went wrong. */
  responseExcerpt: string;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** How a signing secret is named wherever it is not shown (the page, the history): its last four characters. */
export function signingSecretHint(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/**
 * The organization's endpoints of a format, oldest first (the Webhooks page's, or the Alerts page's
 * Slack channels); with `endpointId`, that one alone, of either format (none when it is not the
 * organization's).
 */
export async function listWebhookEndpoints(orgId: string, endpointId?: string, format: WebhookFormat = "standard"): Promise<WebhookEndpointDto[]> {
  const stats = getDb()
    .select({
      endpointId: webhookDeliveries.endpointId,
      total: count().as("total"),
      failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')::int`.as("failed"),
      lastAt: sql<Date | null>`max(${webhookDeliveries.createdAt})`.as("last_at"),
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.orgId, orgId), endpointId === undefined ? undefined : eq(webhookDeliveries.endpointId, endpointId)))
    .groupBy(webhookDeliveries.endpointId)
    .as("stats");
  const rows = await getDb()
    .select({ endpoint: webhookEndpoints, total: stats.total, failed: stats.failed, lastAt: stats.lastAt })
    .from(webhookEndpoints)
    .leftJoin(stats, eq(stats.endpointId, webhookEndpoints.id))
    .where(and(eq(webhookEndpoints.orgId, orgId), endpointId === undefined ? eq(webhookEndpoints.format, format) : eq(webhookEndpoints.id, endpointId)))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map(({ endpoint, total, failed, lastAt }) => ({
    id: endpoint.id,
    url: endpoint.url,
    format: endpoint.format,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes as WebhookEventType[],
    mode: endpoint.mode,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: iso(endpoint.failingSince),
    createdAt: endpoint.createdAt.toISOString(),
    // Opened for its last characters only (docs/security.md#secrets-at-rest).
    secretHint: signingSecretHint(webhookCredentials.open(endpoint.signingSecret)),
    previousSecretEndsAt: endpoint.previousSecretEndsAt && endpoint.previousSecretEndsAt > new Date() ? endpoint.previousSecretEndsAt.toISOString() : null,
    deliveries: { total: total ?? 0, failed: failed ?? 0, lastAt: lastAt ? new Date(lastAt).toISOString() : null },
  }));
}

/** The attempts of the organization's `deliveryIds`, by delivery, each delivery's first first. */
async function attemptsOf(orgId: string, deliveryIds: string[]): Promise<Map<string, WebhookAttemptDto[]>> {
  const byDelivery = new Map<string, WebhookAttemptDto[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await getDb()
    .select()
    .from(webhookDeliveryAttempts)
    .where(and(eq(webhookDeliveryAttempts.orgId, orgId), inArray(webhookDeliveryAttempts.deliveryId, deliveryIds)))
    .orderBy(webhookDeliveryAttempts.deliveryId, webhookDeliveryAttempts.attempt);
  for (const row of rows) {
    const attempts = byDelivery.get(row.deliveryId) ?? [];
    attempts.push({
      attempt: row.attempt,
      attemptedAt: row.attemptedAt.toISOString(),
      responseStatus: row.responseStatus,
      durationMs: row.durationMs,
      responseExcerpt: row.responseExcerpt,
    });
    byDelivery.set(row.deliveryId, attempts);
  }
  return byDelivery;
}

/** The endpoint's newest deliveries, newest first, each with its attempts. */
export async function listWebhookDeliveries(orgId: string, endpointId: string, limit: number): Promise<WebhookDeliveryDto[]> {
  const rows = await getDb()
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.orgId, orgId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  const attempts = await attemptsOf(
    orgId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    responseExcerpt: row.responseExcerpt,
    payload: JSON.stringify(row.payload, null, 2),
    attemptLog: attempts.get(row.id) ?? [],
  }));
}

/** The endpoint of the organization (without its credentials), locked for the rest of the transaction; null when it has none by that id. */
export async function lockWebhookEndpoint(tx: DbOrTx, orgId: string, endpointId: string) {
  const [endpoint] = await tx
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, format: webhookEndpoints.format, enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, endpointId)))
    .for("update");
  return endpoint ?? null;
}

export async function countWebhookEndpoints(tx: DbOrTx, orgId: string, format: WebhookFormat): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.format, format)));
  return row?.n ?? 0;
}

/** A delivery of the organization with its endpoint's URL as shown (a Slack channel's hint), locked; null when it has none by that id. */
export async function lockWebhookDelivery(tx: DbOrTx, orgId: string, deliveryId: string) {
  const [row] = await tx
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, enabled: webhookEndpoints.enabled })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.orgId, orgId), eq(webhookDeliveries.id, deliveryId)))
    .for("update", { of: webhookDeliveries });
  return row ?? null;
}

/** A new endpoint, its credentials sealed: the signing secret, and a Slack channel's URL (its hint in `url`). */
export async function insertWebhookEndpoint(
  tx: DbOrTx,
  endpoint: {
    id: string;
    orgId: string;
    url: string;
    description: string;
    eventTypes: WebhookEventType[];
    mode: Mode;
    format: WebhookFormat;
    signingSecret: string;
    createdBy: string;
  },
): Promise<void> {
  const { url, signingSecret, ...rest } = endpoint;
  await tx.insert(webhookEndpoints).values({ ...rest, ...storedAddress(url, endpoint.format), signingSecret: webhookCredentials.seal(signingSecret) });
}

/** On, or off by a person; turning it on clears a failing streak so it gets its 5 days again. */
export async function setWebhookEndpointEnabled(tx: DbOrTx, endpointId: string, enabled: boolean): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set(enabled ? { enabled: true, disabledReason: null, failingSince: null } : { enabled: false, disabledReason: "manual" })
    .where(eq(webhookEndpoints.id, endpointId));
}

/**
 * A new secret, sealed; the old one keeps signing (beside it) until `previousEndsAt`, moved as it is
 * stored, sealed. Returns the old one's hint, for the history.
 */
export async function rotateWebhookSecret(tx: DbOrTx, endpointId: string, secret: string, previousEndsAt: Date): Promise<{ previousHint: string }> {
  const [rotated] = await tx
    .update(webhookEndpoints)
    .set({
      signingSecret: webhookCredentials.seal(secret),
      // The right side reads the row as it was: the secret being replaced.
      previousSigningSecret: sql`${webhookEndpoints.signingSecret}`,
      previousSecretEndsAt: previousEndsAt,
    })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ previous: webhookEndpoints.previousSigningSecret });
  return { previousHint: signingSecretHint(webhookCredentials.open(rotated!.previous!)) };
}

/** The endpoint and its delivery log; queued jobs of it find nothing and end. */
export async function deleteWebhookEndpoint(tx: DbOrTx, endpointId: string): Promise<void> {
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
}

/** Back to pending for a resend: its attempts so far stay counted. */
export async function markDeliveryPending(tx: DbOrTx, deliveryId: string): Promise<void> {
  await tx.update(webhookDeliveries).set({ status: "pending" }).where(eq(webhookDeliveries.id, deliveryId));
}
