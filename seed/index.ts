import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db";
import { watchKeyExpiries } from "@/lib/keys/expiry-watch";
import { activityLog, invitations, memberships, organizations, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { INVITATION_LIFETIME_DAYS } from "@/lib/invitations/link";
import { mintInvitationToken } from "@/lib/invitations/token";
import { DEMO_PASSWORD, DEMO_USERS, MEMBERSHIPS, ORGS } from "./accounts";
import { DAY, DEMO_BROWSER, DEMO_IP, HOUR, seedBudgetUsage, seedKeys } from "./keys";
import { seedTestBooks } from "./test-books";
import { seedTraffic } from "./traffic";
import { seedWebhooks } from "./webhooks";

/**
 * The invitations' states in Acme: an invitation waiting to be accepted and one that expired unused.
 * Their links are random and shown to nobody: invite someone to get a link that works.
 */
const INVITATIONS = [
  { id: "ivt_demo_acme_pending", email: "carol@acme.test", role: "admin", invitedBy: "usr_demo_owner", sentDaysAgo: 2 },
  { id: "ivt_demo_acme_expired", email: "dev@contractor.test", role: "member", invitedBy: "usr_demo_admin", sentDaysAgo: 12 },
] as const;

async function seedInvitations(db: Db, now: Date): Promise<void> {
  const rows = INVITATIONS.map(({ sentDaysAgo, ...invitation }) => {
    const createdAt = new Date(now.getTime() - sentDaysAgo * DAY);
    return {
      ...invitation,
      orgId: "org_demo_acme",
      tokenHash: mintInvitationToken().hash,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + INVITATION_LIFETIME_DAYS * DAY),
    };
  });
  const added = await db.insert(invitations).values(rows).onConflictDoNothing().returning({ id: invitations.id });
  const target = (row: (typeof rows)[number]) => ({
    orgId: row.orgId,
    actorUserId: row.invitedBy,
    targetType: "invitation" as const,
    targetId: row.id,
    targetName: row.email,
    ip: DEMO_IP,
    userAgent: DEMO_BROWSER,
  });
  const history = rows
    .filter((row) => added.some((a) => a.id === row.id))
    .map((row) => ({
      ...target(row),
      action: "invitation.created",
      after: { email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString() },
      createdAt: row.createdAt,
    }));
  if (history.length > 0) await db.insert(activityLog).values(history);
}

/** When the demo people last signed in, for the Members page (docs/features/members.md); the guest never has. */
async function seedLastSignIns(db: Db, now: Date): Promise<void> {
  for (const [userId, hoursAgo] of [
    ["usr_demo_owner", 3],
    ["usr_demo_admin", 26],
    ["usr_demo_member", 120],
  ] as const) {
    await db
      .update(users)
      .set({ lastSignInAt: new Date(now.getTime() - hoursAgo * HOUR) })
      .where(and(eq(users.id, userId), isNull(users.lastSignInAt)));
  }
}

/** Demo organizations, users, keys, Acme's test books and 30 days of traffic. Safe to run again: it adds only what is missing. */
export async function seedDatabase(db: Db, now = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db
    .insert(users)
    .values(DEMO_USERS.map(({ id, email, name }) => ({ id, email, name, passwordHash })))
    .onConflictDoNothing();
  await db.insert(organizations).values(ORGS).onConflictDoNothing();
  await db.insert(memberships).values(MEMBERSHIPS).onConflictDoNothing();
  await seedKeys(db, now);
  await seedTestBooks(db, now);
  await seedTraffic(db, now);
  await seedBudgetUsage(db, now);
  await seedWebhooks(db, now, { ip: DEMO_IP, userAgent: DEMO_BROWSER });
  await seedInvitations(db, now);
  await seedLastSignIns(db, now);
  await watchKeyExpiries(db, now);
}

/** True when the database has no organization yet: the embedded database's first start. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(ne(organizations.id, "")).limit(1);
  return !row;
}
