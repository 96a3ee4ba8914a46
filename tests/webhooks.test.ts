import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { alerts, rateLimitWindows, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/core/ids";
import { enqueueWebhookEvent } from "@/lib/webhooks/queue";
import { listWebhookDeliveries } from "@/db/queries/webhooks";
import { attemptDelivery, startWebhookWorker } from "@/lib/webhooks/worker";
import { isPublicAddress } from "@/lib/webhooks/address-guard";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { createWebhookEndpointAction, rotateWebhookSecretAction, sendTestWebhookAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { raiseBudgetAlerts, raiseKeyExpiryAlerts, raiseKeyLeakedAlert, raiseQuotaAlerts, raiseRateLimitAlert } from "@/lib/alerts/raise";
import { budgetPeriodStart } from "@/core/key-budget";
import { WEBHOOK_EVENT_TYPE_VALUES, WEBHOOK_TEST_EVENT, type Mode } from "@/core/enums";
import { utcMonthStart } from "@/core/time";
import { createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { eventually } from "./helpers/eventually";
import { receiver, stopReceivers } from "./helpers/webhook-receiver";

// Webhooks with a real receiver on 127.0.0.1: that needs WEBHOOK_ALLOW_PRIVATE, which one test
// turns off. Retries wait a second here, not thirty.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
process.env.WEBHOOK_RETRY_DELAY_SECONDS = "1";

async function endpointFor(orgId: string, url: string, options: { eventTypes?: string[]; failingSince?: Date; mode?: Mode } = {}) {
  const secret = newSigningSecret();
  const id = newId("whe");
  await getDb()
    .insert(webhookEndpoints)
    .values({
      id,
      orgId,
      url,
      eventTypes: options.eventTypes ?? ["key.created", "key.revoked"],
      mode: options.mode ?? "live",
      signingSecret: webhookCredentials.seal(secret),
      failingSince: options.failingSince ?? null,
    });
  return { id, secret };
}

async function deliveriesOf(endpointId: string) {
  return getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

/** An event to a receiver that answers 503 twice and then 200, once the worker has delivered it. */
async function deliverOnThirdAttempt() {
  const org = await createOrg("pro");
  const hooks = await receiver();
  hooks.answer = (n) => (n <= 2 ? 503 : 200);
  const endpoint = await endpointFor(org.id, hooks.url);
  await getDb().transaction((tx) => enqueueWebhookEvent(tx, org.id, { type: "key.revoked", mode: "live", data: { id: "key_9" } }));
  await eventually(
    () => deliveriesOf(endpoint.id),
    (rows) => rows[0]?.status === "succeeded",
    25_000,
  );
  return { org, hooks, endpoint };
}
// Two tests read the same three attempts: made once (about 7 s of backoff), not once for each.
let onThirdAttempt: ReturnType<typeof deliverOnThirdAttempt> | undefined;
const deliveredOnThirdAttempt = () => (onThirdAttempt ??= deliverOnThirdAttempt());

beforeAll(async () => {
  await startWebhookWorker();
}, 60_000);

afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
});

afterAll(async () => {
  // Endpoints off first, so nothing is retried against a stopped receiver.
  await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" });
  await stopReceivers();
});

describe("webhook delivery", () => {
  it("sends the event signed as Standard Webhooks says, verified by the standardwebhooks package", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    const endpoint = await endpointFor(org.id, hooks.url);
    const ignored = await endpointFor(org.id, hooks.url, { eventTypes: ["usage.rate_limited"] });
    const queued = await getDb().transaction((tx) =>
      enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: { id: "key_123", name: "Billing" } }),
    );
    expect(queued).toBe(1);

    await eventually(
      async () => hooks.received.length,
      (n) => n >= 1,
    );
    expect(hooks.received).toHaveLength(1);
    const [request] = hooks.received;
    const payload = new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>) as {
      type: string;
      data: unknown;
      timestamp: string;
    };
    expect(payload).toMatchObject({ type: "key.created", data: { id: "key_123", name: "Billing" } });
    expect(request!.headers["webhook-id"]).toMatch(/^msg_/);
    // Another secret does not verify it.
    expect(() => new Webhook(newSigningSecret()).verify(request!.body, request!.headers as Record<string, string>)).toThrow();

    const [delivery] = await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === "succeeded",
    );
    expect(delivery).toMatchObject({
      id: request!.headers["webhook-id"],
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      responseExcerpt: "thanks",
      eventType: "key.created",
    });
    expect(await deliveriesOf(ignored.id)).toEqual([]);
  });

  it("signs with the secret shown when the endpoint was added, and after a roll with the new one and the previous one", async () => {
    const team = await createTeam("pro");
    const hooks = await receiver();
    actAs(team.admin.id);
    const added = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: hooks.url, eventTypes: "key.created" }));
    if (!added.ok) throw new Error(added.error);
    const testEvent = async (n: number) => {
      expect((await sendTestWebhookAction(null, { orgId: team.org.id, endpointId: added.data.id })).ok).toBe(true);
      const received = await eventually(
        async () => hooks.received,
        (requests) => requests.length >= n,
      );
      return received[n - 1]!;
    };
    const verifies = (secret: string, request: (typeof hooks.received)[number]) => {
      try {
        return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) !== undefined;
      } catch {
        return false;
      }
    };
    const first = await testEvent(1);
    expect(verifies(added.data.secret, first)).toBe(true);

    const rolled = await rotateWebhookSecretAction(null, { orgId: team.org.id, endpointId: added.data.id });
    if (!rolled.ok) throw new Error(rolled.error);
    const second = await testEvent(2);
    // Two signatures while the previous secret lasts: a receiver holding either verifies it.
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect([verifies(rolled.data.secret, second), verifies(added.data.secret, second), verifies(newSigningSecret(), second)]).toEqual([true, true, false]);
  });

  it("retries a receiver that fails twice with backoff, and delivers on the third attempt with the same webhook-id", async () => {
    const { hooks, endpoint } = await deliveredOnThirdAttempt();

    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, responseStatus: 200 });
    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([delivery!.id]));
    // Each attempt signs anew, each one verifies.
    for (const request of hooks.received)
      expect(() => new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    // Backoff: the attempts are spread out, not sent back to back.
    expect(hooks.received[2]!.at - hooks.received[0]!.at).toBeGreaterThanOrEqual(1_000);
  }, 30_000);

  it("keeps every attempt's answer, so a receiver's earlier errors can be read after it recovers", async () => {
    const { org, endpoint } = await deliveredOnThirdAttempt();
    const [delivery] = await listWebhookDeliveries(org.id, endpoint.id, 10);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, responseStatus: 200, responseExcerpt: "thanks" });
    expect(delivery!.attemptLog.map(({ attempt, responseStatus, responseExcerpt }) => ({ attempt, responseStatus, responseExcerpt }))).toEqual([
      { attempt: 1, responseStatus: 503, responseExcerpt: "refused with 503" },
      { attempt: 2, responseStatus: 503, responseExcerpt: "refused with 503" },
      { attempt: 3, responseStatus: 200, responseExcerpt: "thanks" },
    ]);
    const times = delivery!.attemptLog.map((attempt) => Date.parse(attempt.attemptedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const attempt of delivery!.attemptLog) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    // Another organization reads none of them, even by the endpoint's id.
    const other = await createOrg("pro");
    expect(await listWebhookDeliveries(other.id, endpoint.id, 10)).toEqual([]);
  }, 30_000);

  it("cuts a receiver that does not answer at 10 s", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    hooks.answer = () => "hang";
    const endpoint = await endpointFor(org.id, hooks.url);
    const deliveryId = await getDb().transaction(async (tx) => {
      await enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: { id: "key_1" } });
      return (await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)))[0]!.id;
    });
    // The attempt itself, as the worker makes it (the worker may make its own meanwhile).
    const outcome = await attemptDelivery({ deliveryId, since: new Date().toISOString() }, { lastRetry: false });
    expect(outcome).toBe("retry");
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery!.responseStatus).toBeNull();
    expect(delivery!.responseExcerpt).toBe("No answer within 10 s.");
    expect(delivery!.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(delivery!.durationMs).toBeLessThan(12_000);
    await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" }).where(eq(webhookEndpoints.id, endpoint.id));
  }, 30_000);

  it("refuses a private address without WEBHOOK_ALLOW_PRIVATE, before connecting", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    const endpoint = await endpointFor(org.id, hooks.url);
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    await getDb().transaction((tx) => enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: {} }));
    const [delivery] = await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => (rows[0]?.attempts ?? 0) >= 1,
    );
    await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" }).where(eq(webhookEndpoints.id, endpoint.id));
    expect(delivery).toMatchObject({ status: "pending", responseStatus: null });
    expect(delivery!.responseExcerpt).toBe(
      "127.0.0.1 resolves to 127.0.0.1, a private, loopback or reserved address: webhooks are sent to public addresses only.",
    );
    expect(hooks.received).toEqual([]);
  });

  it("refuses a host name that resolves to loopback at the connection's own lookup, and the receiver gets nothing", async () => {
    // Stored straight, as a name resolving to a public address at save time and to loopback later
    // would be: only the lookup the request makes stands between the delivery and this machine.
    const org = await createOrg("pro");
    const hooks = await receiver();
    const byName = new URL(hooks.url);
    byName.hostname = "localhost";
    const endpoint = await endpointFor(org.id, byName.toString());
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    await getDb().transaction((tx) => enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: {} }));
    const [delivery] = await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => (rows[0]?.attempts ?? 0) >= 1,
    );
    await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" }).where(eq(webhookEndpoints.id, endpoint.id));
    expect(delivery!.responseExcerpt).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a private, loopback or reserved address: webhooks are sent to public addresses only\.$/,
    );
    expect(delivery).toMatchObject({ status: "pending", responseStatus: null });
    expect(hooks.received).toEqual([]);
  });

  it("knows which addresses are public", () => {
    for (const address of [
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "127.0.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fc00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.1.2.3",
      "224.0.0.1",
      "not an address",
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.216.34"])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  it("queues nothing when the change's transaction rolls back", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    const endpoint = await endpointFor(org.id, hooks.url);
    const before = rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from pgboss.job`))[0]!.n;
    await expect(
      getDb().transaction(async (tx) => {
        await enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: {} });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from pgboss.job`))[0]!.n).toBe(before);
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(hooks.received).toEqual([]);
  });

  it("gives a delivery up after 24 hours, and turns off an endpoint failing for 5 days with one alert", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    hooks.answer = () => 500;
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000);
    const endpoint = await endpointFor(org.id, hooks.url, { failingSince: sixDaysAgo });
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    const deliveryId = await getDb().transaction(async (tx) => {
      await enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: {} });
      return (await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)))[0]!.id;
    });
    expect(await attemptDelivery({ deliveryId, since: dayAgo.toISOString() }, { lastRetry: false })).toBe("failed");
    const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: "failing", failingSince: sixDaysAgo });
    const raised = await getDb().select().from(alerts).where(eq(alerts.orgId, org.id));
    expect(raised).toEqual([expect.objectContaining({ kind: "webhook_disabled", details: { endpointId: endpoint.id, url: hooks.url, days: 5 } })]);
  });

  it("clears the failing streak on a success", async () => {
    const org = await createOrg("pro");
    const hooks = await receiver();
    const endpoint = await endpointFor(org.id, hooks.url, { failingSince: new Date(Date.now() - 86_400_000) });
    await getDb().transaction((tx) => enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: {} }));
    await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === "succeeded",
    );
    const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: true, failingSince: null });
  });

  it("sends key lifecycle events from the actions and alerts as events, each queued with its change, to the endpoints of their mode", async () => {
    const team = await createTeam("pro");
    const eventTypes = ["key.created", "key.revoked", "usage.quota_threshold"];
    const liveHooks = await receiver();
    const live = await endpointFor(team.org.id, liveHooks.url, { eventTypes });
    const hooks = await receiver();
    const endpoint = await endpointFor(team.org.id, hooks.url, { eventTypes, mode: "test" });
    actAs(team.owner.id);
    const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Billing server", mode: "test" }));
    if (!created.ok) throw new Error(created.error);
    expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: created.data.key.id, reason: "no_longer_used" }))).ok).toBe(true);
    await raiseQuotaAlerts(getDb(), { orgId: team.org.id, month: utcMonthStart(new Date()), quota: 10_000, thresholds: [80], at: new Date() });

    await eventually(
      async () => hooks.received.length + liveHooks.received.length,
      (n) => n >= 3,
    );
    const verified = (received: typeof hooks.received, secret: string) =>
      received.map(
        (request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
      );
    // The test key's events reach the test endpoint; the month's quota, live calls only, the live one.
    const bodies = verified(hooks.received, endpoint.secret);
    expect(bodies.map((body) => body.type).sort()).toEqual(["key.created", "key.revoked"]);
    const liveBodies = verified(liveHooks.received, live.secret);
    expect(liveBodies.map((body) => body.type)).toEqual(["usage.quota_threshold"]);
    expect(bodies.find((body) => body.type === "key.created")!.data).toMatchObject({
      id: created.data.key.id,
      name: "Billing server",
      mode: "test",
      actor_user_id: team.owner.id,
    });
    expect(JSON.stringify(bodies)).not.toContain(created.data.value);
    // The revoked key is named as the created one was, hint included, so a receiver can match the two.
    expect(bodies.find((body) => body.type === "key.revoked")!.data).toMatchObject({
      id: created.data.key.id,
      name: "Billing server",
      hint: created.data.key.hint,
      reason: "no_longer_used",
    });
    expect(liveBodies[0]!.data).toMatchObject({ threshold: 80, quota: 10_000, calls: 8_000 });
  });

  it("sends every event type's data in snake_case, as /v1 names its fields", async () => {
    const team = await createTeam("pro");
    const hooks = await receiver();
    const endpoint = await endpointFor(team.org.id, hooks.url, { eventTypes: [...WEBHOOK_EVENT_TYPE_VALUES] });
    const now = new Date();
    const day = 86_400_000;
    actAs(team.owner.id);
    const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Billing server", expiresIn: "90" }));
    if (!created.ok) throw new Error(created.error);
    expect((await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: created.data.key.id, overlap: "1h" }))).ok).toBe(true);
    expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: created.data.key.id, reason: "replaced" }))).ok).toBe(true);
    await insertKey(team.org.id, { name: "Expiring", createdAt: new Date(now.getTime() - 30 * day), expiresAt: new Date(now.getTime() + 3 * day) });
    await insertKey(team.org.id, { name: "Expired", createdAt: new Date(now.getTime() - 30 * day), expiresAt: new Date(now.getTime() - day) });
    await raiseKeyExpiryAlerts(getDb(), now);
    await raiseQuotaAlerts(getDb(), { orgId: team.org.id, month: utcMonthStart(now), quota: 10_000, thresholds: [80], at: now });
    const limited = await insertKey(team.org.id, { name: "Busy" });
    await getDb()
      .insert(rateLimitWindows)
      .values({ orgId: team.org.id, apiKeyId: limited.id, windowStart: new Date(Math.floor(now.getTime() / 60_000) * 60_000), count: 100 });
    await raiseRateLimitAlert(getDb(), { orgId: team.org.id, apiKeyId: limited.id, rateLimit: 60, at: now });
    const budgeted = await insertKey(team.org.id, { name: "Budgeted", budget: { limit: 10, period: "week" } });
    await raiseBudgetAlerts(getDb(), {
      orgId: team.org.id,
      apiKeyId: budgeted.id,
      limit: 10,
      period: "week",
      periodStart: budgetPeriodStart(now, "week"),
      thresholds: [80],
      at: now,
    });
    const leaked = await insertKey(team.org.id, { name: "Pushed to GitHub" });
    await raiseKeyLeakedAlert(getDb(), {
      orgId: team.org.id,
      apiKeyId: leaked.id,
      url: "https://github.com/o/r/blob/1/.env",
      source: "content",
      response: "alert",
      at: now,
    });
    expect((await sendTestWebhookAction(null, form({ orgId: team.org.id, endpointId: endpoint.id }))).ok).toBe(true);

    // Every type a receiver can get: a new one fails here until it is sent above.
    const types = [...WEBHOOK_EVENT_TYPE_VALUES, WEBHOOK_TEST_EVENT].sort();
    await eventually(
      async () => new Set(hooks.received.map((request) => (JSON.parse(request.body) as { type: string }).type)).size,
      (n) => n >= types.length,
    );
    const bodies = hooks.received.map(
      (request) =>
        new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
    );
    expect([...new Set(bodies.map((body) => body.type))].sort()).toEqual(types);
    const keysOf = (value: unknown): string[] =>
      value !== null && typeof value === "object" ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]) : [];
    for (const body of bodies) expect([body.type, keysOf(body).filter((key) => !/^[a-z0-9]+(_[a-z0-9]+)*$/.test(key))]).toEqual([body.type, []]);
    const dataOf = (type: string) => bodies.find((body) => body.type === type)!.data;
    expect(dataOf("key.created")).toMatchObject({
      id: created.data.key.id,
      mode: "live",
      expires_at: created.data.key.expiresAt,
      actor_user_id: team.owner.id,
    });
    expect(dataOf("key.rolled")).toMatchObject({
      mode: "live",
      actor_user_id: team.owner.id,
      replaces: { id: created.data.key.id, ends_at: expect.any(String) },
    });
    expect(dataOf("key.revoked")).toMatchObject({ reason: "replaced", actor_user_id: team.owner.id });
    expect(dataOf("key.expiring")).toMatchObject({ alert_id: expect.any(Number), key_id: expect.any(String), expires_at: expect.any(String) });
    expect(dataOf("key.expired")).toMatchObject({ key_id: expect.any(String), expires_at: expect.any(String) });
    expect(dataOf("usage.quota_threshold")).toMatchObject({ threshold: 80, quota: 10_000, calls: 8_000 });
    expect(dataOf("usage.rate_limited")).toMatchObject({ key_id: limited.id, rate_limit: 60, refused: 40 });
    expect(dataOf("key.budget_threshold")).toMatchObject({
      key_id: budgeted.id,
      threshold: 80,
      limit: 10,
      used: 8,
      period: "week",
      period_start: expect.any(String),
      resets_at: expect.any(String),
    });
    expect(dataOf("key.leaked")).toMatchObject({ key_id: leaked.id, url: "https://github.com/o/r/blob/1/.env", source: "content", response: "alert" });
    expect(dataOf(WEBHOOK_TEST_EVENT)).toMatchObject({ endpoint_id: endpoint.id });
    // The delivery log shows the body as it was sent.
    const logged = await deliveriesOf(endpoint.id);
    expect(JSON.stringify(logged.map((delivery) => delivery.payload))).not.toMatch(/"[a-z0-9]+[A-Z]\w*":/);
  }, 30_000);
});
