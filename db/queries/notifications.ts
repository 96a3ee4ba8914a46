import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import { memberships, notificationEmails, notificationPreferences, organizations, users } from "@/db/schema";
import { NOTICE_KIND_VALUES, NOTICE_KINDS, type NoticeKind } from "@/core/notifications";
import type { Role } from "@/core/enums";

export type EmailPreferences = Record<NoticeKind, boolean>;

/** What `userId` gets by email in the organization: each kind by the person's choice, or its default. */
export async function getEmailPreferences(orgId: string, userId: string, db: DbOrTx = getDb()): Promise<EmailPreferences> {
  const rows = await db
    .select({ kind: notificationPreferences.kind, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.orgId, orgId), eq(notificationPreferences.userId, userId)));
  const chosen = new Map(rows.map((row) => [row.kind, row.email]));
  return Object.fromEntries(NOTICE_KIND_VALUES.map((kind) => [kind, chosen.get(kind) ?? NOTICE_KINDS[kind].emailByDefault])) as EmailPreferences;
}

/** Records the person's choice for each kind given. */
export async function setEmailPreferences(tx: DbOrTx, orgId: string, userId: string, choices: Partial<EmailPreferences>, at = new Date()): Promise<void> {
  const rows = Object.entries(choices).map(([kind, email]) => ({ orgId, userId, kind: kind as NoticeKind, email: email!, updatedAt: at }));
  if (rows.length === 0) return;
  await tx
    .insert(notificationPreferences)
    .values(rows)
    .onConflictDoUpdate({
      target: [notificationPreferences.orgId, notificationPreferences.userId, notificationPreferences.kind],
      set: { email: sql`excluded.email`, updatedAt: sql`excluded.updated_at` },
    });
}

/** A queued email with what composing it needs: the person, the organization, and whether the person still wants it. */
export interface QueuedEmail {
  id: string;
  orgId: string;
  orgName: string;
  orgSlug: string;
  userId: string;
  to: string;
  kind: NoticeKind;
  alertId: number | null;
  apiKeyId: string | null;
  details: Record<string, string | number>;
  status: (typeof notificationEmails.$inferSelect)["status"];
  attempts: number;
  /** The person's role now, or null when they left the organization. */
  role: Role | null;
  /** The person's choice for this kind now (or its default). */
  wanted: boolean;
}

export async function findQueuedEmail(emailId: string): Promise<QueuedEmail | null> {
  const [row] = await getDb()
    .select({
      email: notificationEmails,
      orgName: organizations.name,
      orgSlug: organizations.slug,
      to: users.email,
      role: memberships.role,
      chosen: notificationPreferences.email,
    })
    .from(notificationEmails)
    .innerJoin(organizations, eq(organizations.id, notificationEmails.orgId))
    .innerJoin(users, eq(users.id, notificationEmails.userId))
    .leftJoin(memberships, and(eq(memberships.orgId, notificationEmails.orgId), eq(memberships.userId, notificationEmails.userId)))
    .leftJoin(
      notificationPreferences,
      and(
        eq(notificationPreferences.orgId, notificationEmails.orgId),
        eq(notificationPreferences.userId, notificationEmails.userId),
        eq(notificationPreferences.kind, notificationEmails.kind),
      ),
    )
    .where(eq(notificationEmails.id, emailId));
  if (!row) return null;
  const { email } = row;
  return {
    id: email.id,
    orgId: email.orgId,
    orgName: row.orgName,
    orgSlug: row.orgSlug,
    userId: email.userId,
    to: row.to,
    kind: email.kind,
    alertId: email.alertId,
    apiKeyId: email.apiKeyId,
    details: email.details,
    status: email.status,
    attempts: email.attempts,
    role: row.role,
    wanted: row.chosen ?? NOTICE_KINDS[email.kind].emailByDefault,
  };
}

/** One attempt's outcome in the email's log. */
export async function recordEmailAttempt(
  emailId: string,
  outcome: { status: QueuedEmail["status"]; error: string | null; at: Date; attempted: boolean },
): Promise<void> {
  await getDb()
    .update(notificationEmails)
    .set({
      status: outcome.status,
      lastError: outcome.error,
      ...(outcome.attempted ? { attempts: sql`${notificationEmails.attempts} + 1` } : {}),
      ...(outcome.status === "sent" ? { sentAt: outcome.at } : {}),
    })
    .where(eq(notificationEmails.id, emailId));
}

/** The organization's name and the person's email an unsubscribe link names, or null when either is gone. */
export async function findUnsubscribeParties(orgId: string, userId: string): Promise<{ orgName: string; email: string } | null> {
  const [row] = await getDb()
    .select({ orgName: organizations.name, email: users.email })
    .from(organizations)
    .innerJoin(users, eq(users.id, userId))
    .where(eq(organizations.id, orgId));
  return row ?? null;
}
