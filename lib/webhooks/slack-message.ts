import { WEBHOOK_TEST_EVENT } from "@/core/enums";
import { getAlert } from "@/db/queries/alerts";
import { getOrganizationNames } from "@/db/queries/organizations";
import type { WebhookPayload } from "./queue";
import { describeAlert } from "@/lib/alerts/text";
import { linkBaseUrl } from "@/lib/link-base";

/** Slack's mrkdwn reads &, < and > as markup: in text they are written as entities. */
function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The body a Slack-compatible incoming webhook receives for a delivery: the alert as the
 * bell words it, the key it names, and a link to where to act, as `text` (what notifications and
 * other clients show) and as Block Kit sections. Null when the alert is gone (its key was deleted
 * with it): nothing is left to say.
 */
export async function slackMessage(delivery: { orgId: string; payload: WebhookPayload }, base = linkBaseUrl()): Promise<string | null> {
  const org = await getOrganizationNames(delivery.orgId);
  if (!org) return null;
  if (delivery.payload.type === WEBHOOK_TEST_EVENT) {
    const text = `Test message from Invoicing: this channel gets the alerts of ${escaped(org.name)}.`;
    return JSON.stringify({ text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] });
  }
  const alert = await getAlert(delivery.orgId, Number(delivery.payload.data.alert_id));
  if (!alert) return null;
  const { title, detail, href, action, tone } = describeAlert(alert, org.slug);
  const mark = tone === "destructive" ? ":red_circle:" : ":large_orange_circle:";
  const link = `<${base}${href}|${escaped(action)}>`;
  const heading = `${mark} *${escaped(title)}*`;
  return JSON.stringify({
    text: `${heading}\n${escaped(detail)} ${link}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${heading}\n${escaped(detail)}` } },
      { type: "context", elements: [{ type: "mrkdwn", text: `${escaped(org.name)} · ${link}` }] },
    ],
  });
}
