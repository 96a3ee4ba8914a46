import "server-only";
import { z } from "zod";
import { getDb } from "@/db";
import { findUnsubscribeParties, setEmailPreferences } from "@/db/queries/notifications";
import { NOTICE_KINDS } from "@/core/notifications";
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

const INVALID = "This unsubscribe link is not valid. Open the link from the email again, or sign in and change what you get under Settings › Email.";

/** The subject of a link this server signed, with the names to show; null for a forged or stale one. */
export async function unsubscribeTarget(token: string): Promise<UnsubscribeTarget | null> {
  const subject = readUnsubscribeToken(token);
  const parties = subject ? await findUnsubscribeParties(subject.orgId, subject.userId) : null;
  return subject && parties ? { ...subject, ...parties, emails: NOTICE_KINDS[subject.kind].emails } : null;
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
