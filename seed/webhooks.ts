import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import type { Db } from "@/db";
import { activityLog, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "@/db/schema";
import { webhookPayload, type WebhookEvent } from "@/lib/webhooks/queue";

/**
 * Acme's demo webhook endpoint (docs/features/webhooks.md): an accounting sync that received key events for weeks,
 * then answered 410 once its receiver moved, so an admin turned it off. It is off so the demo
 * never sends anything to its made-up address; its delivery log shows each outcome a real one has.
 */
const ENDPOINT_ID = "whe_demo_acme_books";
const ADMIN = "usr_demo_admin";
const URL = "https://hooks.acme-books.example/invoicing/events";
const EVENT_TYPES = ["key.created", "key.rolled", "key.revoked", "key.expired"];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface DemoDelivery {
  id: string;
  eventType: WebhookEvent["type"];
  daysAgo: number;
  data: Record<string, unknown>;
  status: "succeeded" | "failed";
  attempts: number;
  /** Minutes from the event to its last attempt. */
  lastAttemptAfterMinutes: number;
  responseStatus: number;
  durationMs: number;
  responseExcerpt: string;
  /** What the attempts before the last one got, when it was not the last one's answer. */
  earlierAnswer?: { responseStatus: number; responseExcerpt: string };
}

const DELIVERIES: DemoDelivery[] = [
  {
    id: "msg_demo_acme_ios_created",
    eventType: "key.created",
    daysAgo: 21,
    data: { id: "key_demo_acme_ios", name: "iOS app backend", access: "full", expiresAt: null, actorUserId: ADMIN },
    status: "succeeded",
    attempts: 1,
    lastAttemptAfterMinutes: 0,
    responseStatus: 200,
    durationMs: 184,
    responseExcerpt: '{"received":true}',
  },
  {
    id: "msg_demo_acme_loadtest_expired",
    eventType: "key.expired",
    daysAgo: 10,
    data: { keyId: "key_demo_acme_loadtest" },
    status: "succeeded",
    attempts: 1,
    lastAttemptAfterMinutes: 0,
    responseStatus: 204,
    durationMs: 97,
    responseExcerpt: "",
  },
  {
    // Two 503s while the receiver was redeployed, then delivered with backoff.
    id: "msg_demo_acme_legacy_revoked",
    eventType: "key.revoked",
    daysAgo: 9,
    data: { id: "key_demo_acme_legacy", name: "Legacy CSV importer", reason: "replaced", actorUserId: "usr_demo_owner" },
    status: "succeeded",
    attempts: 3,
    lastAttemptAfterMinutes: 2,
    responseStatus: 200,
    durationMs: 211,
    responseExcerpt: '{"received":true}',
    earlierAnswer: { responseStatus: 503, responseExcerpt: "upstream connect error or disconnect/reset before headers" },
  },
  {
    id: "msg_demo_acme_test",
    eventType: "webhook.test",
    daysAgo: 3,
    data: { endpointId: ENDPOINT_ID, message: "A test event from the Invoicing dashboard." },
    status: "failed",
    attempts: 11,
    lastAttemptAfterMinutes: 24 * 60,
    responseStatus: 410,
    durationMs: 63,
    responseExcerpt: "Gone: this receiver moved to https://books.acme.example/hooks",
  },
];

/** A demo delivery's attempts, spread from its event to its last attempt as backoff spreads them (each wait about double the one before). */
function demoAttempts(delivery: DemoDelivery, createdAt: Date) {
  const last = delivery.attempts;
  return Array.from({ length: last }, (_, index) => {
    const attempt = index + 1;
    const share = last === 1 ? 0 : (2 ** index - 1) / (2 ** (last - 1) - 1);
    const answer = attempt === last ? delivery : (delivery.earlierAnswer ?? delivery);
    return {
      orgId: "org_demo_acme",
      deliveryId: delivery.id,
      attempt,
      attemptedAt: new Date(createdAt.getTime() + share * delivery.lastAttemptAfterMinutes * MINUTE),
      responseStatus: answer.responseStatus,
      durationMs: delivery.durationMs,
      responseExcerpt: answer.responseExcerpt,
    };
  });
}

/** Adds the demo endpoint with its deliveries and history once (made from `browser`); a second run changes nothing. */
export async function seedWebhooks(db: Db, now: Date, browser: { ip: string; userAgent: string }): Promise<void> {
  const at = (daysAgo: number, minutes = 0) => new Date(now.getTime() - daysAgo * DAY + minutes * MINUTE);
  const test = DELIVERIES.find((delivery) => delivery.eventType === "webhook.test")!;
  const turnedOffAt = at(test.daysAgo, test.lastAttemptAfterMinutes + 30);
  const added = await db
    .insert(webhookEndpoints)
    .values({
      id: ENDPOINT_ID,
      orgId: "org_demo_acme",
      url: URL,
      description: "Accounting sync (Acme Books)",
      eventTypes: EVENT_TYPES,
      mode: "live",
      // Sealed as every endpoint's (docs/security.md#secrets-at-rest); nobody is shown this one.
      signingSecret: webhookCredentials.seal(newSigningSecret()),
      enabled: false,
      disabledReason: "manual",
      failingSince: at(test.daysAgo),
      createdBy: ADMIN,
      createdAt: at(30),
    })
    .onConflictDoNothing()
    .returning({ id: webhookEndpoints.id });
  if (added.length === 0) return;

  await db.insert(webhookDeliveries).values(
    DELIVERIES.map((delivery) => {
      const createdAt = at(delivery.daysAgo);
      return {
        id: delivery.id,
        orgId: "org_demo_acme",
        endpointId: ENDPOINT_ID,
        eventType: delivery.eventType,
        payload: webhookPayload({ type: delivery.eventType, data: delivery.data }, createdAt),
        status: delivery.status,
        attempts: delivery.attempts,
        lastAttemptAt: at(delivery.daysAgo, delivery.lastAttemptAfterMinutes),
        responseStatus: delivery.responseStatus,
        durationMs: delivery.durationMs,
        responseExcerpt: delivery.responseExcerpt,
        createdAt,
      };
    }),
  );

  await db.insert(webhookDeliveryAttempts).values(DELIVERIES.flatMap((delivery) => demoAttempts(delivery, at(delivery.daysAgo))));

  const target = { orgId: "org_demo_acme", actorUserId: ADMIN, targetType: "webhook_endpoint" as const, targetId: ENDPOINT_ID, targetName: URL, ...browser };
  await db.insert(activityLog).values([
    {
      ...target,
      action: "webhook_endpoint.created",
      after: { url: URL, description: "Accounting sync (Acme Books)", eventTypes: EVENT_TYPES.join(", ") },
      createdAt: at(30),
    },
    { ...target, action: "webhook_endpoint.test_sent", after: { delivery: test.id }, createdAt: at(test.daysAgo) },
    { ...target, action: "webhook_endpoint.disabled", before: { enabled: true }, after: { enabled: false }, createdAt: turnedOffAt },
  ]);
}
