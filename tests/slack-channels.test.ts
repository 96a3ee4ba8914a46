import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackChannelAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { createApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { sendTestWebhookAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { getDb } from "@/db";
import { listActivity } from "@/db/queries/activity";
import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/core/ids";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import { createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { eventually } from "./helpers/eventually";
import { receiver, stopReceivers } from "./helpers/webhook-receiver";
import { startApiServer } from "./helpers/api-server";

// A local receiver stands in for Slack: that needs WEBHOOK_ALLOW_PRIVATE, which one test turns off.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
process.env.WEBHOOK_RETRY_DELAY_SECONDS = "1";
const api = startApiServer();

beforeAll(async () => {
  await startWebhookWorker();
}, 60_000);

afterAll(async () => {
  await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" });
  await stopReceivers();
});

async function addChannel(orgId: string, url: string, description = "#api-alerts") {
  const result = await createSlackChannelAction(null, form({ orgId, url, description }));
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

describe("Slack channels", () => {
  it("get each alert as a formatted message with the key and a link, retried and logged; plain endpoints and key events stay apart", async () => {
    const team = await createTeam("enterprise");
    const slack = await receiver();
    slack.answer = (n) => (n === 1 ? 500 : 200);
    actAs(team.admin.id);
    const channel = await addChannel(team.org.id, `${slack.url}/T000/B000/secretPart1234`);
    expect(channel.hint).toBe(`${new URL(slack.url).origin}/…/…1234`);
    // A signed endpoint subscribed to the budget event gets the event, not the Slack message.
    const plain = await receiver();
    await getDb()
      .insert(webhookEndpoints)
      .values({
        id: newId("whe"),
        orgId: team.org.id,
        url: plain.url,
        eventTypes: ["key.budget_threshold"],
        mode: "live",
        signingSecret: webhookCredentials.seal(newSigningSecret()),
      });
    expect((await createApiKeyAction(null, form({ orgId: team.org.id, name: "Made meanwhile" }))).ok).toBe(true);

    const key = await insertKey(team.org.id, { name: "Nightly <export>", budget: { limit: 5, period: "day" } });
    for (let i = 0; i < 4; i++) await api.request("/v1/invoices", { key: key.value });
    await eventually(
      () => slack.received.length,
      (n) => n >= 2,
    );
    const message = JSON.parse(slack.received[1]!.body) as { text: string; blocks: { type: string }[] };
    expect(message.text).toContain("*“Nightly &lt;export&gt;” used 80 % of its budget*");
    expect(message.text).toContain("4 of 5 requests per day are used");
    expect(message.text).toContain(`<http://localhost:3000/${team.org.slug}/settings/api/keys/${key.id}|Open the key>`);
    expect(message.blocks.map((block) => block.type)).toEqual(["section", "context"]);
    // The first attempt got 500: the log has both attempts, the second delivered (recorded once its answer is in).
    const [delivery] = await eventually(
      () => getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, channel.id)),
      (rows) => rows[0]?.status !== "pending",
    );
    expect(delivery).toMatchObject({ eventType: "alert.budget_threshold", status: "succeeded", attempts: 2, responseStatus: 200 });
    // Only alerts reach the channel (no key.created); the endpoint got its event in its own form.
    expect(slack.received).toHaveLength(2);
    await eventually(
      () => plain.received.length,
      (n) => n >= 1,
    );
    expect((JSON.parse(plain.received[0]!.body) as { type: string }).type).toBe("key.budget_threshold");

    // The test message, sent from the channel's page.
    expect((await sendTestWebhookAction(null, form({ orgId: team.org.id, endpointId: channel.id }))).ok).toBe(true);
    await eventually(
      () => slack.received.length,
      (n) => n >= 3,
    );
    expect((JSON.parse(slack.received[2]!.body) as { text: string }).text).toBe(
      `Test message from Invoicing: this channel gets the alerts of ${team.org.name}.`,
    );
  });

  it("refuses a private address without WEBHOOK_ALLOW_PRIVATE, and keeps the URL out of pages and the history", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    try {
      for (const url of [
        "https://127.0.0.1/services/T/B/x",
        "https://10.0.0.7/services/T/B/x",
        "https://[::1]/services/T/B/x",
        "http://hooks.slack.com/services/T/B/x",
      ]) {
        const refused = await createSlackChannelAction(null, form({ orgId: team.org.id, url }));
        expect(refused, url).toMatchObject({ ok: false, fieldErrors: { url: [expect.any(String)] } });
      }
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
    expect(await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.orgId, team.org.id))).toEqual([]);

    const slack = await receiver();
    const secretUrl = `${slack.url}/T0AAA/B0BBB/verysecrettoken9Qf`;
    const { id } = await addChannel(team.org.id, secretUrl, "#billing");
    const [listed] = await listWebhookEndpoints(team.org.id, undefined, "slack");
    expect(listed).toMatchObject({ id, format: "slack", description: "#billing", url: `${new URL(slack.url).origin}/…/…n9Qf` });
    // The Webhooks page lists signed endpoints only.
    expect(await listWebhookEndpoints(team.org.id)).toEqual([]);
    const history = JSON.stringify((await listActivity(team.org.id, {})).rows);
    expect(history).toContain("…n9Qf");
    expect(history).not.toContain("verysecrettoken");
    const [row] = await getDb()
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.orgId, team.org.id), eq(webhookEndpoints.id, id)));
    // Stored sealed, its hint in its place (docs/security.md#secrets-at-rest); the sender opens it.
    expect(row!.url).toBe(`${new URL(slack.url).origin}/…/…n9Qf`);
    expect(webhookCredentials.open(row!.sealedUrl!)).toBe(secretUrl);
  });
});
