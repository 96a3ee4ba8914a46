import { and, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  resendWebhookDeliveryAction,
  rotateWebhookSecretAction,
  sendTestWebhookAction,
  setWebhookEndpointEnabledAction,
} from "@/app/[orgSlug]/settings/webhooks/actions";
import { getDb } from "@/db";
import { jobQueue } from "@/db/job-queue";
import { rowsOf } from "@/db/rows";
import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { activityLog, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { webhookCredentials } from "@/core/sealed-secret";
import { isPublicAddress, refusedLiteral } from "@/lib/webhooks/address-guard";
import { createTeam, form } from "./helpers/factories";
import { actAs } from "./helpers/session";

// Deliveries are queued here but no worker runs in this file: what matters is what the actions
// write and refuse. Loopback URLs pass the address check only where private addresses are allowed.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
const URL_OF_RECEIVER = "http://127.0.0.1:9/hooks";

let team: Awaited<ReturnType<typeof createTeam>>;

beforeAll(async () => {
  await jobQueue();
}, 60_000);

beforeEach(async () => {
  team = await createTeam("pro");
  actAs(team.admin.id);
});

async function addEndpoint(values: Record<string, string> = {}) {
  const result = await createWebhookEndpointAction(
    null,
    form({ orgId: team.org.id, url: URL_OF_RECEIVER, description: "Ops relay", eventTypes: "key.created,key.revoked", ...values }),
  );
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

async function endpointsOf(orgId: string) {
  return getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.orgId, orgId));
}

async function queuedJobs(): Promise<number> {
  return rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from pgboss.job where name = 'webhook-delivery'`))[0]!.n;
}

describe("webhook endpoints", () => {
  it("adds an endpoint, shows its secret once and never again, and writes the history", async () => {
    const added = await addEndpoint();
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [listed] = await listWebhookEndpoints(team.org.id);
    expect(listed).toMatchObject({
      url: URL_OF_RECEIVER,
      description: "Ops relay",
      eventTypes: ["key.created", "key.revoked"],
      enabled: true,
      secretHint: `whsec_…${added.secret.slice(-4)}`,
    });
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "webhook_endpoint.created")));
    expect(entry).toMatchObject({
      actorUserId: team.admin.id,
      targetType: "webhook_endpoint",
      targetId: added.id,
      after: { url: URL_OF_RECEIVER, eventTypes: "key.created, key.revoked" },
    });
    expect(JSON.stringify(entry)).not.toContain(added.secret);
  });

  it.each([
    [{ url: "" }, "url", "Enter the URL that receives the events."],
    [{ url: "not a url" }, "url", "Enter a full URL, such as https://example.com/webhooks."],
    [{ url: "ftp://example.com/hooks" }, "url", "Use an https:// URL."],
    [{ url: "https://user:pw@example.com/hooks" }, "url", "Remove the user name and password from the URL: the signature proves who sent the event."],
    [{ url: `https://example.com/${"a".repeat(2100)}` }, "url", "Use at most 2048 characters."],
    [{ eventTypes: "" }, "eventTypes", "Choose at least one event."],
    [{ eventTypes: "key.created,key.deleted" }, "eventTypes", '"key.deleted" is not an event type.'],
    [{ description: "x".repeat(201) }, "description", "Use at most 200 characters."],
    [{ description: "two\nlines" }, "description", "Remove control characters such as tabs or line breaks."],
  ])("refuses %j on its field and adds nothing", async (input, field, message) => {
    const result = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: URL_OF_RECEIVER, eventTypes: "key.created", ...input }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { [field]: [message] } });
    expect(await endpointsOf(team.org.id)).toEqual([]);
  });

  it("refuses a private address unless WEBHOOK_ALLOW_PRIVATE, and plain http outside localhost", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    try {
      for (const url of ["https://10.1.2.3/hooks", "https://169.254.169.254/latest", "https://[::1]/hooks", "https://localhost/hooks"]) {
        const result = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url, eventTypes: "key.created" }));
        expect(result).toMatchObject({ ok: false, fieldErrors: { url: [expect.stringContaining("a private, loopback or reserved address")] } });
      }
      const plain = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: "http://203.0.113.9/hooks", eventTypes: "key.created" }));
      expect(plain).toMatchObject({
        ok: false,
        fieldErrors: { url: ["Use an https:// URL: plain http:// is accepted only for localhost during development."] },
      });
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
    expect(await endpointsOf(team.org.id)).toEqual([]);
  });

  it("refuses https://[::127.0.0.1]/ and other IPv4-compatible IPv6 addresses as the IPv4 address they name", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    try {
      // The URL parser writes [::127.0.0.1] as [::7f00:1]; each names a private IPv4 address.
      for (const url of ["https://[::127.0.0.1]/", "https://[::7f00:1]/hooks", "https://[::10.0.0.1]/hooks", "https://[::169.254.169.254]/latest"]) {
        const result = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url, eventTypes: "key.created" }));
        expect([url, result]).toMatchObject([url, { ok: false, fieldErrors: { url: [expect.stringContaining("a private, loopback or reserved address")] } }]);
        expect(refusedLiteral(new URL(url).hostname)?.message).toContain("a private, loopback or reserved address");
      }
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
    expect(await endpointsOf(team.org.id)).toEqual([]);
    // A public IPv4 address written the same way stays public.
    expect(isPublicAddress("::8.8.8.8")).toBe(true);
  });

  it("keeps an organization to 10 endpoints", async () => {
    for (let i = 0; i < 10; i++) await addEndpoint();
    expect(await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: URL_OF_RECEIVER, eventTypes: "key.created" }))).toEqual({
      ok: false,
      error: "An organization can have at most 10 webhook endpoints. Delete one you no longer use first.",
    });
  });

  it("turns an endpoint off and on, rotates its secret keeping the old one for 24 hours, and deletes it", async () => {
    const added = await addEndpoint();
    const input = { orgId: team.org.id, endpointId: added.id };
    expect(await setWebhookEndpointEnabledAction(null, { ...input, enabled: "false" })).toEqual({ ok: true, data: { enabled: false } });
    expect(await setWebhookEndpointEnabledAction(null, { ...input, enabled: "false" })).toEqual({ ok: false, error: "This endpoint is already off." });
    expect(await sendTestWebhookAction(null, input)).toEqual({ ok: false, error: "Turn the endpoint on to send it a test event." });
    expect((await setWebhookEndpointEnabledAction(null, { ...input, enabled: "true" })).ok).toBe(true);

    const rotated = await rotateWebhookSecretAction(null, input);
    if (!rotated.ok) throw new Error(rotated.error);
    const [row] = await endpointsOf(team.org.id);
    // Both stored sealed (docs/security.md#secrets-at-rest), the old one signing beside the new one.
    expect([webhookCredentials.open(row!.signingSecret), webhookCredentials.open(row!.previousSigningSecret!)]).toEqual([rotated.data.secret, added.secret]);
    expect(row!.previousSecretEndsAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    expect((await deleteWebhookEndpointAction(null, input)).ok).toBe(true);
    expect(await endpointsOf(team.org.id)).toEqual([]);
    const actions = (await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id))).map((entry) => entry.action);
    expect(actions).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.disabled",
      "webhook_endpoint.enabled",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.deleted",
    ]);
    const [rotation] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "webhook_endpoint.secret_rotated")));
    expect(rotation).toMatchObject({ before: { secret: `whsec_…${added.secret.slice(-4)}` }, after: { secret: `whsec_…${rotated.data.secret.slice(-4)}` } });
  });

  it("queues a test event and resends a settled delivery with the same id, each with its job", async () => {
    const added = await addEndpoint();
    const jobsBefore = await queuedJobs();
    const sent = await sendTestWebhookAction(null, { orgId: team.org.id, endpointId: added.id });
    if (!sent.ok) throw new Error(sent.error);
    const [delivery] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, sent.data.deliveryId));
    expect(delivery).toMatchObject({ eventType: "webhook.test", status: "pending", payload: { type: "webhook.test", data: { endpoint_id: added.id } } });
    expect(await queuedJobs()).toBe(jobsBefore + 1);

    expect(await resendWebhookDeliveryAction(null, { orgId: team.org.id, deliveryId: delivery!.id })).toEqual({
      ok: false,
      error: "This delivery is still being attempted.",
    });
    await getDb().update(webhookDeliveries).set({ status: "failed", attempts: 3 }).where(eq(webhookDeliveries.id, delivery!.id));
    expect(await resendWebhookDeliveryAction(null, { orgId: team.org.id, deliveryId: delivery!.id })).toEqual({ ok: true, data: { deliveryId: delivery!.id } });
    const [again] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id));
    expect(again).toMatchObject({ status: "pending", attempts: 3 });
    expect(await queuedJobs()).toBe(jobsBefore + 2);
  });

  it("refuses another organization's endpoint and delivery as not found, and changes nothing", async () => {
    const added = await addEndpoint();
    const other = await createTeam("pro");
    actAs(other.owner.id);
    for (const result of [
      await setWebhookEndpointEnabledAction(null, { orgId: other.org.id, endpointId: added.id, enabled: "false" }),
      await rotateWebhookSecretAction(null, { orgId: other.org.id, endpointId: added.id }),
      await deleteWebhookEndpointAction(null, { orgId: other.org.id, endpointId: added.id }),
      await sendTestWebhookAction(null, { orgId: other.org.id, endpointId: added.id }),
    ]) {
      expect(result).toEqual({ ok: false, error: "This webhook endpoint was not found." });
    }
    expect(await deleteWebhookEndpointAction(null, { orgId: team.org.id, endpointId: added.id })).toEqual({ ok: false, error: "Organization not found." });
    expect(await endpointsOf(team.org.id)).toHaveLength(1);
  });

  it.each(["member", "guest"] as const)("refuses a %s every webhook action", async (role) => {
    const added = await addEndpoint();
    actAs(team.byRole[role].id);
    const input = { orgId: team.org.id, endpointId: added.id };
    const refusal = { ok: false, error: "Only owners and admins can change alert settings and webhooks." };
    expect(await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: URL_OF_RECEIVER, eventTypes: "key.created" }))).toEqual(refusal);
    expect(await setWebhookEndpointEnabledAction(null, { ...input, enabled: "false" })).toEqual(refusal);
    expect(await rotateWebhookSecretAction(null, input)).toEqual(refusal);
    expect(await deleteWebhookEndpointAction(null, input)).toEqual(refusal);
    expect(await sendTestWebhookAction(null, input)).toEqual(refusal);
    expect(await resendWebhookDeliveryAction(null, { orgId: team.org.id, deliveryId: "msg_whatever" })).toEqual(refusal);
    const [row] = await endpointsOf(team.org.id);
    expect(row).toMatchObject({ enabled: true, previousSigningSecret: null });
  });
});
