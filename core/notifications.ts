import { ALERT_KIND_VALUES, KEY_EXPIRING_ALERT_DAYS } from "./enums";
import { LOG_STREAM_BACKLOG_DAYS } from "./log-streams";

/**
 * What can reach a person by email. Every alert kind, each off until the
 * person turns it on at /settings/notifications, and the expiry reminders, which go to a key's
 * creator and the owners unless they turn them off (GitHub's habit).
 */
export const NOTICE_KIND_VALUES = [...ALERT_KIND_VALUES, "expiry_reminder"] as const;
export type NoticeKind = (typeof NOTICE_KIND_VALUES)[number];

/** The days before a key's expiry its reminders go out (docs/features/notifications.md#expiry-reminders). */
export const EXPIRY_REMINDER_DAYS = [7, 1] as const;

/** Each kind: its label, what it is about, whether it is mailed by default, and its emails as a phrase that fits "Stop …?". */
export const NOTICE_KINDS: Record<NoticeKind, { label: string; description: string; emailByDefault: boolean; emails: string }> = {
  quota_threshold: {
    label: "Quota thresholds",
    description: "The organization's calls this month reach one of the Alerts page's thresholds.",
    emailByDefault: false,
    emails: "emails about quota thresholds",
  },
  budget_threshold: {
    label: "Key budgets",
    description: "A key uses 80 % or all of its budget for the day, week or month.",
    emailByDefault: false,
    emails: "emails about key budgets",
  },
  rate_limited: {
    label: "Rate-limit bursts",
    description: "A key is refused for its rate limit in a burst.",
    emailByDefault: false,
    emails: "emails about rate-limit bursts",
  },
  key_expiring: {
    label: "Keys expiring soon",
    description: `Any key of the organization expires within ${KEY_EXPIRING_ALERT_DAYS} days.`,
    emailByDefault: false,
    emails: "emails about keys expiring soon",
  },
  key_expired: {
    label: "Keys expired",
    description: "Any key of the organization has expired.",
    emailByDefault: false,
    emails: "emails about expired keys",
  },
  webhook_disabled: {
    label: "Webhook endpoints turned off",
    description: "An endpoint failed for 5 days and no longer receives events.",
    emailByDefault: false,
    emails: "emails about webhook endpoints turned off",
  },
  key_leaked: {
    label: "Leaked keys",
    description: "A key of the organization was found in public and reported by a secret scanner (owners always get this email).",
    emailByDefault: true,
    emails: "emails about leaked keys",
  },
  log_stream_backlog_dropped: {
    label: "Log streams dropping events",
    description: `A log stream dropped events its destination had not taken ${LOG_STREAM_BACKLOG_DAYS} days after they happened.`,
    emailByDefault: false,
    emails: "emails about log streams dropping events",
  },
  expiry_reminder: {
    label: "Expiry reminders",
    description: `${EXPIRY_REMINDER_DAYS.map((days) => `${days} ${days === 1 ? "day" : "days"}`).join(" and ")} before a key you created expires (owners: any key).`,
    emailByDefault: true,
    emails: "key expiry reminders",
  },
};
