import type { AlertDto } from "@/db/queries/alerts";
import type { QueuedEmail } from "@/db/queries/notifications";
import type { Mail } from "@/lib/mail";
import { describeAlert } from "@/lib/alerts/text";
import { NOTICE_KINDS } from "@/core/notifications";
import { unsubscribeToken } from "./unsubscribe-token";
import { linkBaseUrl } from "@/lib/link-base";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The one-click unsubscribe URL (RFC 8058: mail clients POST to it) and the page a person opens from the email. */
export function unsubscribeUrls(email: Pick<QueuedEmail, "orgId" | "userId" | "kind">, base = linkBaseUrl()) {
  const token = encodeURIComponent(unsubscribeToken(email));
  return { oneClick: `${base}/api/unsubscribe?token=${token}`, page: `${base}/unsubscribe?token=${token}` };
}

/** What the email says: an alert (its words as the bell has them) or an expiry reminder. */
function content(email: QueuedEmail, alert: AlertDto | null, base: string): { subject: string; lines: string[] } {
  if (alert) {
    const text = describeAlert(alert, email.orgSlug);
    return { subject: `[${email.orgName}] ${text.title}`, lines: [text.detail, "", `${text.action}: ${base}${text.href}`] };
  }
  const { keyName, days, expiresAt } = email.details;
  const when = Number(days) === 1 ? "tomorrow" : `in ${days} days`;
  return {
    subject: `[${email.orgName}] API key “${keyName}” expires ${when}`,
    lines: [
      `The API key “${keyName}” stops working on ${dateTime.format(new Date(String(expiresAt)))} UTC; calls with it will then be refused with 401 api_key_expired.`,
      "Roll it on its page to get a replacement value, and put the new value in your clients before then.",
      "",
      `Open the key: ${base}/${email.orgSlug}/settings/api/keys/${email.apiKeyId}`,
    ],
  };
}

/**
 * An email of SPEC §15, with the signed one-click unsubscribe link in its footer and in the
 * List-Unsubscribe and List-Unsubscribe-Post headers (RFC 8058), so mail clients offer the button.
 */
export function composeEmail(email: QueuedEmail, alert: AlertDto | null, base = linkBaseUrl()): Mail {
  const { subject, lines } = content(email, alert, base);
  const unsubscribe = unsubscribeUrls(email, base);
  return {
    to: email.to,
    subject,
    text: [
      ...lines,
      "",
      "—",
      `You get this email because of your notification settings in ${email.orgName}: ${base}/${email.orgSlug}/settings/notifications`,
      `Stop these emails (${NOTICE_KINDS[email.kind].label.toLowerCase()}) with one click: ${unsubscribe.page}`,
    ].join("\n"),
    headers: { "List-Unsubscribe": `<${unsubscribe.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
