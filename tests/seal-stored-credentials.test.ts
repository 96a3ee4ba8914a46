import { and, eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpointAction, sendTestWebhookAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { isSealed, webhookCredentials } from "@/core/sealed-secret";
import { newId } from "@/core/ids";
import { getDb } from "@/db";
import { jobQueue } from "@/db/job-queue";
import { migrateDatabase } from "@/db/migrate";
import { insertWebhookDisabledAlert } from "@/db/queries/alert-inserts";
import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { alerts, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { sealStoredWebhookCredentials } from "@/db/webhook-credentials";
import { enqueueWebhookEvent } from "@/lib/webhooks/queue";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { attemptDelivery } from "@/lib/webhooks/worker";
import { createTeam, form } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { receiver, stopReceivers, type Receiver } from "./helpers/webhook-receiver";

// The migrations' data step (docs/security.md#secrets-at-rest): endpoints stored before sealing, their
// secrets and a Slack channel's URL in plain text, are sealed where the migrations run. Receivers on
// 127.0.0.1 need WEBHOOK_ALLOW_PRIVATE.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";

beforeAll(async () => {
  await jobQueue();
}, 60_000);

afterAll(async () => {
  await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" });
  await stopReceivers();
});

/**
 * An organization's endpoints as the release before sealing wrote them: a signed endpoint in the
 * middle of a rotation, a Slack channel with its URL in `url`, and the alert that named the channel
 * when it was once turned off.
 */
async function storedTheOldWay(hooks: Receiver, slack: Receiver) {
  const team = await createTeam("pro");
  const old = { current: newSigningSecret(), previous: newSigningSecret(), slack: newSigningSecret() };
  const slackUrl = `${slack.url}/T0AAA/B0BBB/oldtoken7777`;
  const ids = { endpoint: newId("whe"), channel: newId("whe") };
  await getDb()
    .insert(webhookEndpoints)
    .values([
      {
        id: ids.endpoint,
        orgId: team.org.id,
        url: hooks.url,
        eventTypes: ["key.created"],
        mode: "live",
        signingSecret: old.current,
        previousSigningSecret: old.previous,
        previousSecretEndsAt: new Date(Date.now() + 12 * 3600_000),
      },
      { id: ids.channel, orgId: team.org.id, url: slackUrl, eventTypes: [], mode: "live", format: "slack", signingSecret: old.slack },
    ]);
  const turnedOff = { orgId: team.org.id, endpointId: ids.channel, url: slackUrl, failingSince: new Date(Date.now() - 6 * 86_400_000), days: 5 };
  await insertWebhookDisabledAlert(getDb(), { ...turnedOff, at: new Date() });
  return { team, old, slackUrl, ids };
}

const endpointsOf = (orgId: string) => getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.orgId, orgId)).orderBy(webhookEndpoints.id);

describe("sealing the credentials stored before sealing", () => {
  it("seals them where the migrations run, a second run changes nothing, and they still deliver", async () => {
    const hooks = await receiver();
    const slack = await receiver();
    const { team, old, slackUrl, ids } = await storedTheOldWay(hooks, slack);
    actAs(team.admin.id);
    const added = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: "http://127.0.0.1:9/hooks", eventTypes: "key.revoked" }));
    if (!added.ok) throw new Error(added.error);
    const [sealedAlready] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, added.data.id));

    await migrateDatabase();
    const rows = await endpointsOf(team.org.id);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const endpoint = byId.get(ids.endpoint)!;
    const channel = byId.get(ids.channel)!;
    expect([endpoint.signingSecret, endpoint.previousSigningSecret!, channel.signingSecret, channel.sealedUrl!].map(isSealed)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([endpoint.signingSecret, endpoint.previousSigningSecret!, channel.signingSecret, channel.sealedUrl!].map(webhookCredentials.open)).toEqual([
      old.current,
      old.previous,
      old.slack,
      slackUrl,
    ]);
    // The channel's hint takes its URL's place, in its row and in the alert that named it; an endpoint sealed already is as it was.
    const hint = `${new URL(slack.url).origin}/…/…7777`;
    expect([endpoint.url, channel.url, endpoint.sealedUrl]).toEqual([hooks.url, hint, null]);
    const [alert] = await getDb()
      .select()
      .from(alerts)
      .where(and(eq(alerts.orgId, team.org.id), eq(alerts.kind, "webhook_disabled")));
    expect(alert!.details).toEqual({ endpointId: ids.channel, url: hint, days: 5 });
    expect(byId.get(added.data.id)).toEqual(sealedAlready);
    expect((await listWebhookEndpoints(team.org.id)).find((listed) => listed.id === ids.endpoint)).toMatchObject({
      secretHint: `whsec_…${old.current.slice(-4)}`,
    });

    await migrateDatabase();
    expect(await endpointsOf(team.org.id)).toEqual(rows);

    // The endpoint signs with both of its secrets; the channel's message goes to its URL itself.
    const deliveryOf = async (endpointId: string) =>
      (await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)))[0]!.id;
    await getDb().transaction((tx) => enqueueWebhookEvent(tx, team.org.id, { type: "key.created", mode: "live", data: { id: "key_1" } }));
    expect(await attemptDelivery({ deliveryId: await deliveryOf(ids.endpoint), since: new Date().toISOString() }, { lastRetry: false })).toBe("delivered");
    const [request] = hooks.received;
    for (const secret of [old.current, old.previous])
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({ type: "key.created" });
    expect((await sendTestWebhookAction(null, { orgId: team.org.id, endpointId: ids.channel })).ok).toBe(true);
    expect(await attemptDelivery({ deliveryId: await deliveryOf(ids.channel), since: new Date().toISOString() }, { lastRetry: false })).toBe("delivered");
    expect(slack.received.map((received) => received.path)).toEqual(["/hooks/T0AAA/B0BBB/oldtoken7777"]);
  });

  it("seals each row once when several processes run it at once", async () => {
    const { team, ids } = await storedTheOldWay(await receiver(), await receiver());
    const counts = await Promise.all([1, 2, 3].map(() => sealStoredWebhookCredentials(getDb())));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
    const rows = await getDb()
      .select()
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, [ids.endpoint, ids.channel]));
    const stored = rows.flatMap((row) => [row.signingSecret, row.previousSigningSecret, row.sealedUrl]).filter((value) => value !== null);
    expect(stored.map(isSealed)).toEqual([true, true, true, true]);
    expect(await sealStoredWebhookCredentials(getDb())).toBe(0);
    expect((await endpointsOf(team.org.id)).length).toBe(2);
  });

  it("leaves them for the server to seal where AUTH_SECRET is not set, rather than seal them under another key", async () => {
    const { team, old } = await storedTheOldWay(await receiver(), await receiver());
    const authSecret = process.env.AUTH_SECRET;
    delete process.env.AUTH_SECRET;
    try {
      expect(await sealStoredWebhookCredentials(getDb())).toBe(0);
    } finally {
      process.env.AUTH_SECRET = authSecret;
    }
    expect((await endpointsOf(team.org.id)).map((row) => row.signingSecret).sort()).toEqual([old.current, old.slack].sort());
    expect(await sealStoredWebhookCredentials(getDb())).toBe(2);
  });
});
