import "server-only";
import { z } from "zod";
import { getDb } from "@/db";
import { findUnsubscribeParties, setEmailPreferences } from "@/db/queries/notifications";
import type { NoticeKind } from "@/core/notifications";
import { boundedString } from "@/lib/input-rules";
import { UserFacingError } from "@/lib/errors";
import { readUnsubscribeToken, type UnsubscribeSubject } from "./unsubscribe-token";

export const unsubscribeInput = z.object({ token: boundedString(512, "This unsubscribe link is not valid.") });

/** What an unsubscribe link turns off, in words: "emails about key budgets" from Acme Inc to ada@example.com. */
export interface UnsubscribeTarget extends UnsubscribeSubject {
  orgName: string;
  email: string;
  emails: string;
}

/** Each kind's emails as a phrase that fits "Stop …?" and "no more … from Acme Inc". */
const EMAILS_OF_KIND: Record<NoticeKind, string> = {
  quota_threshold: "emails about quota thresholds",
  budget_threshold: "emails about key budgets",
  rate_limited: "emails about rate-limit bursts",
  key_expiring: "emails about keys expiring soon",
  key_expired: "emails about expired keys",
  webhook_disabled: "emails about webhook endpoints turned off",
  key_leaked: "emails about leaked keys",
  expiry_reminder: "key expiry reminders",
};

const INVALID = "This unsubscribe link is not valid. Open the link from the email again, or sign in and change what you get under Settings › Email.";

/** The subject of a link this server signed, with the names to show; null for a forged or stale one. */
export async function unsubscribeTarget(token: string): Promise<UnsubscribeTarget | null> {
  const subject = readUnsubscribeToken(token);
  const parties = subject ? await findUnsubscribeParties(subject.orgId, subject.userId) : null;
  return subject && parties ? { ...subject, ...parties, emails: EMAILS_OF_KIND[subject.kind] } : null;
}

/**
 * Turns the link's kind of email off for its person in its organization, without a
 * session: the signature is the authority. Repeating it changes nothing more.
 */
export async function unsubscribe(token: string): Promise<UnsubscribeTarget> {
  const target = await unsubscribeTarget(token);
  if (!target) throw new UserFacingError(INVALID);
  await getDb().transaction((tx) => setEmailPreferences(tx, target.orgId, target.userId, { [target.kind]: false }));
  return target;
}
