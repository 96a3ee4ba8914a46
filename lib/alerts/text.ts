import type { AlertDto } from "@/db/queries/alerts";
import { BUDGET_PERIOD_LABELS, type BudgetPeriod } from "@/core/key-budget";

const number = new Intl.NumberFormat("en-US");
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** What an alert says, where it leads, and how loud it is. */
export interface AlertText {
  title: string;
  detail: string;
  href: string;
  /** The link's name: what the reader does next. */
  action: string;
  tone: "warning" | "destructive";
}

function keyName(alert: AlertDto): string {
  return alert.apiKey ? `“${alert.apiKey.name}”` : "A key that no longer exists";
}

/** Where a scanner found a key: a report may name no URL. */
function whereLeaked(url: string | number | undefined): string {
  return url ? `at ${url}` : "in a public place it did not name";
}

/** A log stream's events dropped by the 7-day backlog rule (docs/features/log-streams.md#the-7-day-backlog), in the day's alert. */
function logStreamDropped(d: AlertDto["details"], orgSlug: string): AlertText {
  const dropped = Number(d.dropped);
  return {
    title: `Log stream “${d.name}” dropped ${number.format(dropped)} ${dropped === 1 ? "event" : "events"} older than ${d.days} days`,
    detail: `Its destination had not taken them ${d.days} days after they happened (it kept failing, or the stream was paused), so they will not be sent. The count is this UTC day's; more are dropped while the stream stays behind.`,
    href: `/${orgSlug}/settings/log-streams`,
    action: "Open log streams",
    tone: "destructive",
  };
}

/** The alerts in words, with the page where the reader acts on them. */
export function describeAlert(alert: AlertDto, orgSlug: string): AlertText {
  const d = alert.details;
  const keyHref = alert.apiKey ? `/${orgSlug}/settings/api/keys/${alert.apiKey.id}` : `/${orgSlug}/settings/api`;
  switch (alert.kind) {
    case "quota_threshold": {
      const month = monthName.format(new Date(`${d.month}-01T00:00:00Z`));
      const full = Number(d.threshold) >= 100;
      return {
        title: full ? "Monthly API quota used up" : `${d.threshold} % of the monthly API quota used`,
        detail: full
          ? `All ${number.format(Number(d.quota))} calls of ${month} are used: the API refuses further calls with 429 until the month ends (UTC).`
          : `${number.format(Number(d.calls))} of ${number.format(Number(d.quota))} calls of ${month} are used.`,
        href: `/${orgSlug}/settings/plan`,
        action: "Review the plan",
        tone: full ? "destructive" : "warning",
      };
    }
    case "budget_threshold": {
      const full = Number(d.threshold) >= 100;
      const budget = `${number.format(Number(d.limit))} requests ${BUDGET_PERIOD_LABELS[d.period as BudgetPeriod]?.per ?? `per ${d.period}`}`;
      const resets = `${dateTime.format(new Date(String(d.resetsAt)))} UTC`;
      return {
        title: full ? `${keyName(alert)} used up its budget` : `${keyName(alert)} used ${d.threshold} % of its budget`,
        detail: full
          ? `All ${budget} are used: the API refuses the key's calls with 429 key_budget_exceeded until ${resets}.`
          : `${number.format(Number(d.used))} of ${budget} are used; the budget starts again on ${resets}.`,
        href: keyHref,
        action: "Open the key",
        tone: full ? "destructive" : "warning",
      };
    }
    case "rate_limited":
      return {
        title: `${keyName(alert)} is being rate limited`,
        detail: `Refused ${number.format(Number(d.refused))} times with 429 in ${d.minutes} minutes (limit ${number.format(Number(d.rateLimit))} requests per minute; alert above ${number.format(Number(d.threshold))}).`,
        href: keyHref,
        action: "Open the key",
        tone: "warning",
      };
    case "key_expiring":
      return {
        title: `${keyName(alert)} expires soon`,
        detail: `It stops working on ${dateTime.format(new Date(String(d.expiresAt)))} UTC. Roll it to get a replacement before then.`,
        href: keyHref,
        action: "Open the key",
        tone: "warning",
      };
    case "key_expired":
      return {
        title: `${keyName(alert)} has expired`,
        detail: `It stopped working on ${dateTime.format(new Date(String(d.expiresAt)))} UTC; the API refuses it with 401 api_key_expired.`,
        href: keyHref,
        action: "Open the key",
        tone: "destructive",
      };
    case "key_leaked":
      return {
        title: d.response === "revoke" ? `${keyName(alert)} was found in public and revoked` : `${keyName(alert)} was found in public`,
        detail:
          d.response === "revoke"
            ? `A secret scanner reported it ${whereLeaked(d.url)}. It was revoked at once: create a new key, deploy it, and remove the old one from where it was published.`
            : `A secret scanner reported it ${whereLeaked(d.url)}. It still works (leaked keys are set to alert only): roll or revoke it, and remove it from where it was published.`,
        href: keyHref,
        action: "Open the key",
        tone: "destructive",
      };
    case "webhook_disabled":
      return {
        title: "A webhook endpoint was turned off",
        detail: `Deliveries to ${d.url} failed for ${d.days} days, so it no longer receives events. Fix the receiver, then turn the endpoint on again.`,
        href: `/${orgSlug}/settings/webhooks`,
        action: "Open webhooks",
        tone: "destructive",
      };
    case "log_stream_backlog_dropped":
      return logStreamDropped(d, orgSlug);
  }
}
