import type { AlertDto } from "@/db/queries/alerts";
import type { QueuedEmail } from "@/db/queries/notifications";
import type { Mail } from "@/lib/mail";
import { describeAlert } from "@/lib/alerts/text";
import { NOTICE_KINDS } from "@/core/notifications";
import { unsubscribeToken } from "./unsubscribe-token";
import { linkBaseUrl } from "@/lib/link-base";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const HOUR = 3_600_000;

/**
 * The time left until `expiresAt`, measured when the email is composed: the reminder's own days
 * (7 or 1) only say which window queued it: a server down for days queues the reminder late, and
 * a refused email is sent again later.
 */
function timeLeft(expiresAt: Date, now: Date): string {
  const hours = Math.round((expiresAt.getTime() - now.getTime()) / HOUR);
  if (hours < 1) return "within the hour";
  if (hours < 24) return `in ${hours} ${hours === 1 ? "hour" : "hours"}`;
  const days = Math.round(hours / 24);
  return `in ${days} ${days === 1 ? "day" : "days"}`;
}

/** The one-click unsubscribe URL (RFC 8058: mail clients POST to it) and the page a person opens from the email. */
export function unsubscribeUrls(email: Pick<QueuedEmail, "orgId" | "userId" | "kind">, base = linkBaseUrl()) {
  const token = encodeURIComponent(unsubscribeToken(email));
  return { oneClick: `${base}/api/unsubscribe?token=${token}`, page: `${base}/unsubscribe?token=${token}` };
}

/** What the email says: an alert (its words as the bell has them) or an expiry reminder. */
function content(email: QueuedEmail, alert: AlertDto | null, base: string, now: Date): { subject: string; lines: string[] } {
  if (alert) {
    const text = describeAlert(alert, email.orgSlug);
    return { subject: `[${email.orgName}] ${text.title}`, lines: [text.detail, "", `${text.action}: ${base}${text.href}`] };
  }
  const { keyName } = email.details;
  const expiresAt = new Date(String(email.details.expiresAt));
  return {
    subject: `[${email.orgName}] API key “${keyName}” expires ${timeLeft(expiresAt, now)}`,
    lines: [
      `The API key “${keyName}” stops working on ${dateTime.format(expiresAt)} UTC; calls with it will then be refused with 401 api_key_expired.`,
      "Roll it on its page to get a replacement value, and put the new value in your clients before then.",
      "",
      `Open the key: ${base}/${email.orgSlug}/settings/api/keys/${email.apiKeyId}`,
    ],
  };
}

/**
 * A notification email, with the signed one-click unsubscribe link in its footer and in the
 * List-Unsubscribe and List-Unsubscribe-Post headers (RFC 8058), so mail clients offer the button.
 */
export function composeEmail(email: QueuedEmail, alert: AlertDto | null, now = new Date(), base = linkBaseUrl()): Mail {
  const { subject, lines } = content(email, alert, base, now);
  const unsubscribe = unsubscribeUrls(email, base);
  return {
    to: email.to,
    subject,
    text: [
      ...lines,
      "",
      "—",
      `You get this email because of your notification settings in ${email.orgName}: ${base}/${email.orgSlug}/settings/notifications`,
      `Stop ${NOTICE_KINDS[email.kind].emails} with one click: ${unsubscribe.page}`,
    ].join("\n"),
    headers: { "List-Unsubscribe": `<${unsubscribe.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
