import { getAlert } from "@/db/queries/alerts";
import { findQueuedEmail, recordEmailAttempt } from "@/db/queries/notifications";
import { MAIL_QUEUE } from "@/db/job-queue";
import type { MailJob } from "@/lib/notifications/queue";
import { can } from "@/core/permissions";
import { sendMail } from "@/lib/mail";
import { startJobWorker, type Outcome } from "@/lib/job-worker";
import { composeEmail } from "./compose";
import { inSpan } from "@/core/tracing";

/** How many emails one process sends at once. */
const EMAILS_AT_ONCE = 5;

/**
 * One attempt of a queued email (docs/features/notifications.md#email): skipped when the person left the organization, may no
 * longer see alerts, or turned the kind off since; otherwise sent, with the outcome in the
 * email's log. A refusal is tried again until pg-boss's last retry; the alert itself stands either way.
 */
export async function attemptEmail(job: MailJob, options: { lastRetry: boolean; now?: () => Date }): Promise<Outcome> {
  const now = options.now ?? (() => new Date());
  const email = await findQueuedEmail(job.emailId);
  if (!email || email.status !== "pending") return "skipped";
  const skip = async (why: string) => {
    await recordEmailAttempt(email.id, { status: "skipped", error: why, at: now(), attempted: false });
    return "skipped" as const;
  };
  if (email.role === null) return skip("Not sent: the person left the organization.");
  if (email.kind !== "expiry_reminder" && !can(email.role, "alerts.view")) return skip("Not sent: the person's role no longer sees alerts.");
  if (!email.wanted) return skip("Not sent: the person turned these emails off.");
  const alert = email.alertId === null ? null : await getAlert(email.orgId, email.alertId);
  if (email.alertId !== null && !alert) return skip("Not sent: the alert no longer exists.");
  const outcome = await inSpan("smtp send", () => sendMail(composeEmail(email, alert, now())));
  if (outcome.status === "off") return skip("Not sent: SMTP_URL is not set.");
  if (outcome.status === "sent") {
    await recordEmailAttempt(email.id, { status: "sent", error: null, at: now(), attempted: true });
    return "delivered";
  }
  await recordEmailAttempt(email.id, { status: options.lastRetry ? "failed" : "pending", error: outcome.reason, at: now(), attempted: true });
  return options.lastRetry ? "failed" : "retry";
}

/** The process's consumer of the email queue, beside the webhook worker's. */
export async function startMailWorker(): Promise<void> {
  await startJobWorker<MailJob>(MAIL_QUEUE, EMAILS_AT_ONCE, attemptEmail, (job) => `Email ${job.emailId}`);
}
