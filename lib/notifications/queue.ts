import type { NoticeKind } from "@/core/notifications";
import type { DbOrTx } from "@/db";
import { executorOf, jobQueue, MAIL_QUEUE } from "@/db/job-queue";
import { insertAlertEmails, insertExpiryReminders } from "@/db/queries/notification-emails";

/**
 * The notification emails, decided in the transaction of what causes them: each becomes a row of
 * notification_emails (db/queries/notification-emails.ts) and a pg-boss job that
 * lib/notifications/mail-worker.ts takes after the commit. Nothing here waits on an SMTP server.
 * Without SMTP_URL no email is decided at all.
 */

/** The job of one email. */
export interface MailJob {
  emailId: string;
}

/** A mail refused by the server is tried again with backoff, over about a day. */
const RETRY_LIMIT = 10;
/** A job taken by a process that then died is retried this long after: an exchange lasts at most 3 × 5 s. */
const JOB_EXPIRES_SECONDS = 30;

function retryDelaySeconds(): number {
  // The tests' SMTP server refuses on purpose; it waits a second between attempts, not a minute.
  return Number(process.env.MAIL_RETRY_DELAY_SECONDS ?? 60);
}

export function mailEnabled(): boolean {
  return Boolean(process.env.SMTP_URL);
}

async function queueJobs(tx: DbOrTx, emailIds: string[]): Promise<number> {
  if (emailIds.length === 0) return 0;
  const boss = await jobQueue();
  for (const emailId of emailIds) {
    const job: MailJob = { emailId };
    await boss.send(MAIL_QUEUE, job, {
      db: executorOf(tx),
      retryLimit: RETRY_LIMIT,
      retryDelay: retryDelaySeconds(),
      retryBackoff: true,
      expireInSeconds: JOB_EXPIRES_SECONDS,
    } as never);
  }
  return emailIds.length;
}

/** The emails of the alerts just raised (who gets which: insertAlertEmails). Run it in the transaction that raised them. */
export async function queueAlertEmails(
  tx: DbOrTx,
  alerts: { id: number; orgId: string; kind: NoticeKind; apiKeyId: string | null }[],
  at: Date,
): Promise<number> {
  if (!mailEnabled() || alerts.length === 0) return 0;
  return queueJobs(tx, await insertAlertEmails(tx, alerts, at));
}

/** The expiry reminders due at `now` (which: insertExpiryReminders), once each whichever run sees them first. Returns how many were queued. */
export async function queueExpiryReminders(db: DbOrTx, now = new Date()): Promise<number> {
  if (!mailEnabled()) return 0;
  return db.transaction(async (tx) => queueJobs(tx, await insertExpiryReminders(tx, now)));
}
