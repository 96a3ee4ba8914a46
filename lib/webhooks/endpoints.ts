import "server-only";
import type { z } from "zod";
import { SLACK_CHANNELS_MAX, WEBHOOK_ENDPOINTS_MAX, WEBHOOK_TEST_EVENT, type WebhookFormat } from "@/core/enums";
import { newId } from "@/core/ids";
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  insertWebhookEndpoint,
  lockWebhookDelivery,
  lockWebhookEndpoint,
  markDeliveryPending,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  signingSecretHint,
} from "@/db/queries/webhooks";
import { lockOrganization } from "@/db/queries/organizations";
import { createDelivery, queueDelivery } from "./queue";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import type {
  createSlackChannelInput,
  createWebhookEndpointInput,
  resendWebhookDeliveryInput,
  setWebhookEndpointEnabledInput,
  webhookEndpointInput,
} from "@/lib/webhooks/input";
import { slackUrlHint } from "@/core/slack-url-hint";
import { addressProblem } from "@/lib/webhooks/address-guard";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";

/** After a rotation the previous secret signs too for this long, so receivers can switch (Svix: 24 hours). */
const PREVIOUS_SECRET_HOURS = 24;

const NOT_FOUND = "This webhook endpoint was not found.";

async function endpointOf(ctx: ActionContext, endpointId: string) {
  const endpoint = await lockWebhookEndpoint(ctx.tx, ctx.orgId, endpointId);
  if (!endpoint) throw new UserFacingError(NOT_FOUND);
  return endpoint;
}

/**
 * How the history names an endpoint: its URL as stored, which for a Slack channel is the URL's hint
 * (the URL is a credential, sealed apart: db/webhook-credentials.ts).
 */
const targetOf = (endpoint: { id: string; url: string }) => ({ type: "webhook_endpoint" as const, id: endpoint.id, name: endpoint.url });

/**
 * What every new endpoint passes: its host resolves to public addresses only (the SSRF guard),
 * and the organization has room for another of its format. The organization's row lock keeps two
 * concurrent additions from both passing the maximum.
 */
async function admitNewEndpoint(ctx: ActionContext, url: string, format: WebhookFormat): Promise<void> {
  const problem = await addressProblem(new URL(url).hostname);
  if (problem) throw new UserFacingError("Check the highlighted fields.", { url: [problem] });
  await lockOrganization(ctx.tx, ctx.orgId);
  const max = format === "slack" ? SLACK_CHANNELS_MAX : WEBHOOK_ENDPOINTS_MAX;
  if ((await countWebhookEndpoints(ctx.tx, ctx.orgId, format)) >= max) {
    throw new UserFacingError(
      `An organization can have at most ${max} ${format === "slack" ? "Slack channels" : "webhook endpoints"}. Delete one you no longer use first.`,
    );
  }
}

/** A new endpoint and its signing secret, which the result carries once and no page shows again. */
export async function createEndpoint(
  { url, description, eventTypes, mode }: z.output<typeof createWebhookEndpointInput>,
  ctx: ActionContext,
): Promise<Change<{ id: string; url: string; secret: string }>> {
  await admitNewEndpoint(ctx, url, "standard");
  const endpoint = {
    id: newId("whe"),
    orgId: ctx.orgId,
    url,
    description,
    eventTypes,
    mode,
    format: "standard" as const,
    signingSecret: newSigningSecret(),
    createdBy: ctx.userId,
  };
  await insertWebhookEndpoint(ctx.tx, endpoint);
  return {
    data: { id: endpoint.id, url, secret: endpoint.signingSecret },
    activity: {
      action: "webhook_endpoint.created",
      target: targetOf(endpoint),
      after: { url, description: description || null, eventTypes: eventTypes.join(", "), mode },
    },
  };
}

export async function setEndpointEnabled(
  { endpointId, enabled }: z.output<typeof setWebhookEndpointEnabledInput>,
  ctx: ActionContext,
): Promise<Change<{ enabled: boolean }>> {
  const endpoint = await endpointOf(ctx, endpointId);
  if (endpoint.enabled === enabled) throw new UserFacingError(enabled ? "This endpoint is already on." : "This endpoint is already off.");
  await setWebhookEndpointEnabled(ctx.tx, endpoint.id, enabled);
  return {
    data: { enabled },
    activity: {
      action: enabled ? "webhook_endpoint.enabled" : "webhook_endpoint.disabled",
      target: targetOf(endpoint),
      before: { enabled: endpoint.enabled },
      after: { enabled },
    },
  };
}

/** A new secret, shown once; the previous one keeps signing beside it for 24 hours. */
export async function rotateSecret(
  { endpointId }: z.output<typeof webhookEndpointInput>,
  ctx: ActionContext,
): Promise<Change<{ secret: string; previousEndsAt: string }>> {
  const endpoint = await endpointOf(ctx, endpointId);
  const secret = newSigningSecret();
  const previousEndsAt = new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3600_000);
  const { previousHint } = await rotateWebhookSecret(ctx.tx, endpoint.id, secret, previousEndsAt);
  return {
    data: { secret, previousEndsAt: previousEndsAt.toISOString() },
    activity: {
      action: "webhook_endpoint.secret_rotated",
      target: targetOf(endpoint),
      before: { secret: previousHint },
      after: { secret: signingSecretHint(secret) },
    },
  };
}

export async function deleteEndpoint({ endpointId }: z.output<typeof webhookEndpointInput>, ctx: ActionContext): Promise<Change<{ id: string }>> {
  const endpoint = await endpointOf(ctx, endpointId);
  await deleteWebhookEndpoint(ctx.tx, endpoint.id);
  return { data: { id: endpoint.id }, activity: { action: "webhook_endpoint.deleted", target: targetOf(endpoint), before: { url: endpoint.url } } };
}

/**
 * A Slack-compatible incoming webhook that gets every alert of the organization as a
 * message, through the same durable, retried and logged deliveries as an endpoint. It needs no
 * signing secret of its own to be read; one is kept so the sending path stays one. Its URL is
 * stored sealed, its hint in its place; this result and the history carry the hint only.
 */
export async function createSlackChannel(
  { url, description }: z.output<typeof createSlackChannelInput>,
  ctx: ActionContext,
): Promise<Change<{ id: string; hint: string }>> {
  await admitNewEndpoint(ctx, url, "slack");
  const channel = {
    id: newId("whe"),
    orgId: ctx.orgId,
    url,
    description,
    eventTypes: [],
    // Alerts reach Slack from live keys only (docs/features/test-mode.md#webhooks).
    mode: "live" as const,
    format: "slack" as const,
    signingSecret: newSigningSecret(),
    createdBy: ctx.userId,
  };
  await insertWebhookEndpoint(ctx.tx, channel);
  const hint = slackUrlHint(url);
  return {
    data: { id: channel.id, hint },
    activity: {
      action: "webhook_endpoint.created",
      target: targetOf({ id: channel.id, url: hint }),
      after: { url: hint, description: description || null, eventTypes: "Every alert, as a Slack message" },
    },
  };
}

/** "Send test event": a `webhook.test` delivery to this endpoint, on or off subscription. */
export async function sendTestEvent({ endpointId }: z.output<typeof webhookEndpointInput>, ctx: ActionContext): Promise<Change<{ deliveryId: string }>> {
  const endpoint = await endpointOf(ctx, endpointId);
  if (!endpoint.enabled) throw new UserFacingError("Turn the endpoint on to send it a test event.");
  const deliveryId = await createDelivery(
    ctx.tx,
    ctx.orgId,
    endpoint.id,
    { type: WEBHOOK_TEST_EVENT, data: { endpointId: endpoint.id, message: "A test event from the Invoicing dashboard." } },
    new Date(),
  );
  return { data: { deliveryId }, activity: { action: "webhook_endpoint.test_sent", target: targetOf(endpoint), after: { delivery: deliveryId } } };
}

/** "Resend": the same delivery (the same `webhook-id`) again, with a fresh 24 hours of retries. */
export async function resendDelivery({ deliveryId }: z.output<typeof resendWebhookDeliveryInput>, ctx: ActionContext): Promise<Change<{ deliveryId: string }>> {
  const found = await lockWebhookDelivery(ctx.tx, ctx.orgId, deliveryId);
  if (!found) throw new UserFacingError("This delivery was not found.");
  if (!found.enabled) throw new UserFacingError("Turn the endpoint on to resend to it.");
  if (found.delivery.status === "pending") throw new UserFacingError("This delivery is still being attempted.");
  await markDeliveryPending(ctx.tx, found.delivery.id);
  await queueDelivery(ctx.tx, found.delivery.id, new Date());
  return {
    data: { deliveryId },
    activity: {
      action: "webhook_delivery.resent",
      target: targetOf({ id: found.delivery.endpointId, url: found.url }),
      after: { delivery: deliveryId, event: found.delivery.eventType },
    },
  };
}
