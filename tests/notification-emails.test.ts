import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEmailPreferencesAction } from "@/app/[orgSlug]/settings/notifications/actions";
import { unsubscribeAction } from "@/app/(auth)/unsubscribe/actions";
import { POST as oneClickUnsubscribe } from "@/app/api/unsubscribe/route";
import { getDb } from "@/db";
import { jobQueue } from "@/db/job-queue";
import { queueExpiryReminders } from "@/lib/notifications/queue";
import { getEmailPreferences } from "@/db/queries/notifications";
import { alerts, apiKeys, notificationEmails, notificationPreferences } from "@/db/schema";
import { NOTICE_KIND_VALUES } from "@/core/notifications";
import { startMailWorker } from "@/lib/notifications/mail-worker";
import { addMember, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { eventually } from "./helpers/eventually";
import { MailCatcher } from "./helpers/mail-catcher";
import { startApiServer } from "./helpers/api-server";

// A refused mail is tried again after a second here, not a minute.
process.env.MAIL_RETRY_DELAY_SECONDS = "1";
const smtp = new MailCatcher();
const api = startApiServer();
const DAY = 86_400_000;

beforeAll(async () => {
  await smtp.start();
  await jobQueue();
  await startMailWorker();
});

afterAll(async () => {
  await smtp.stop();
});

/** The person's choices, every kind off but `on`. */
async function choose(orgId: string, userId: string, on: string[]) {
  actAs(userId);
  const fields = Object.fromEntries(NOTICE_KIND_VALUES.filter((kind) => on.includes(kind)).map((kind) => [kind, "on"]));
  const result = await setEmailPreferencesAction(null, form({ orgId, ...fields }));
  expect(result.ok).toBe(true);
}

const call = (key: string) => api.request("/v1/invoices", { key });

/** The unsubscribe link's token, as the email carries it. */
function tokenOf(text: string): string {
  const match = /\/unsubscribe\?token=([^\s]+)/.exec(text);
  return decodeURIComponent(match![1]!);
}

describe("alert emails", () => {
  it("an opted-in member gets the 80 % budget mail once, after the commit, with a one-click unsubscribe; an opted-out admin and a guest get none", async () => {
    const team = await createTeam("enterprise");
    await choose(team.org.id, team.member.id, ["budget_threshold"]);
    // A guest's own choice does not make it one who may see alerts.
    await getDb().insert(notificationPreferences).values({ orgId: team.org.id, userId: team.guest.id, kind: "budget_threshold", email: true });
    const key = await insertKey(team.org.id, { name: "Nightly export", budget: { limit: 5, period: "day" } });
    for (let i = 0; i < 6; i++) await call(key.value);
    const mails = await eventually(
      () => smtp.to(team.member.email),
      (found) => found.length >= 2,
    );
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      [`[${team.org.name}] “Nightly export” used 80 % of its budget`, `[${team.org.name}] “Nightly export” used up its budget`].sort(),
    );
    const [mail] = mails.filter((found) => found.subject!.includes("80 %"));
    expect(mail!.text).toContain("4 of 5 requests per day are used");
    expect(mail!.text).toContain(`/${team.org.slug}/settings/api/keys/${key.id}`);
    expect(mail!.text).toMatch(/^Stop emails about key budgets with one click: http:\/\/localhost:\d+\/unsubscribe\?token=/m);
    const header = (name: string) =>
      mail!.headerLines
        .find((line) => line.key === name)
        ?.line.slice(name.length + 1)
        .trim();
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(header("list-unsubscribe")).toMatch(/^<http:\/\/localhost:\d+\/api\/unsubscribe\?token=[^>]+>$/);
    // More calls past 100 % raise nothing more; nobody else got anything.
    for (let i = 0; i < 3; i++) await call(key.value);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(team.member.email)).toHaveLength(2);
    for (const other of [team.owner, team.admin, team.guest]) expect(smtp.to(other.email)).toEqual([]);
    const rows = await getDb().select().from(notificationEmails).where(eq(notificationEmails.orgId, team.org.id));
    expect(rows.map((row) => [row.userId, row.status])).toEqual([
      [team.member.id, "sent"],
      [team.member.id, "sent"],
    ]);
  });

  it("the unsubscribe link works without signing in, once or twice, and a token altered for another person is refused", async () => {
    const team = await createTeam("enterprise");
    await choose(team.org.id, team.member.id, ["budget_threshold", "quota_threshold"]);
    await choose(team.org.id, team.admin.id, ["budget_threshold"]);
    const key = await insertKey(team.org.id, { name: "Unsubscribed", budget: { limit: 5, period: "day" } });
    for (let i = 0; i < 4; i++) await call(key.value);
    const [mail] = await eventually(
      () => smtp.to(team.member.email),
      (found) => found.length >= 1,
    );
    const token = tokenOf(mail!.text!);
    actAs(null);

    // Forged for the admin: the member's signature over another payload.
    const [, signature] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify([team.org.id, team.admin.id, "budget_threshold"])).toString("base64url")}.${signature}`;
    const refused = await oneClickUnsubscribe(
      new NextRequest(`http://localhost/api/unsubscribe?token=${encodeURIComponent(forged)}`, { method: "POST", body: "List-Unsubscribe=One-Click" }),
    );
    expect(refused.status).toBe(400);
    expect(await unsubscribeAction(null, form({ token: forged }))).toMatchObject({ ok: false, error: expect.stringContaining("not valid") });
    expect((await getEmailPreferences(team.org.id, team.admin.id)).budget_threshold).toBe(true);

    const response = await oneClickUnsubscribe(
      new NextRequest(`http://localhost/api/unsubscribe?token=${encodeURIComponent(token)}`, { method: "POST", body: "List-Unsubscribe=One-Click" }),
    );
    expect(response.status).toBe(200);
    expect(await unsubscribeAction(null, form({ token }))).toMatchObject({ ok: true, data: { orgName: team.org.name, emails: "emails about key budgets" } });
    // Only that kind, only that person.
    expect(await getEmailPreferences(team.org.id, team.member.id)).toMatchObject({ budget_threshold: false, quota_threshold: true });
    expect((await getEmailPreferences(team.org.id, team.admin.id)).budget_threshold).toBe(true);

    // The 100 % mail goes to the admin, not to the member any more.
    await call(key.value);
    await eventually(
      () => smtp.to(team.admin.email),
      (found) => found.length >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.to(team.member.email)).toHaveLength(1);
    const skipped = await getDb()
      .select()
      .from(notificationEmails)
      .where(and(eq(notificationEmails.orgId, team.org.id), eq(notificationEmails.userId, team.member.id)));
    expect(skipped.map((row) => row.status).sort()).toEqual(["sent"]);
  });

  it("a refused mail is tried again until it is accepted, and the alert stands meanwhile", async () => {
    const team = await createTeam("enterprise");
    await choose(team.org.id, team.owner.id, ["budget_threshold"]);
    const key = await insertKey(team.org.id, { name: "Retried", budget: { limit: 5, period: "week" } });
    smtp.refuse = 2;
    const refusedBefore = smtp.refused;
    for (let i = 0; i < 4; i++) await call(key.value);
    // The alert is there at once, whatever the mail server says.
    expect(await getDb().select().from(alerts).where(eq(alerts.orgId, team.org.id))).toHaveLength(1);
    const [mail] = await eventually(
      () => smtp.to(team.owner.email),
      (found) => found.length >= 1,
      30_000,
    );
    expect(mail!.subject).toContain("used 80 % of its budget");
    expect(smtp.refused - refusedBefore).toBe(2);
    // Recorded once the server's answer is in, a moment after the message arrived.
    const [row] = await eventually(
      () => getDb().select().from(notificationEmails).where(eq(notificationEmails.orgId, team.org.id)),
      (rows) => rows[0]?.status !== "pending",
    );
    expect(row).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  }, 40_000);
});

describe("expiry reminders", () => {
  it("reach the key's creator and the owners 7 days and 1 day before, once each under concurrent maintenance runs", async () => {
    const team = await createTeam("pro");
    const now = Date.now();
    const expiresAt = new Date(now + 6.7 * DAY);
    const key = await insertKey(team.org.id, { name: "Quarterly sync", createdBy: team.admin.id, createdAt: new Date(now - 80 * DAY), expiresAt });
    // A key made to live 3 days gets no 7-day reminder; an owner who turned reminders off gets none.
    await insertKey(team.org.id, { name: "Short-lived", createdBy: team.admin.id, createdAt: new Date(now), expiresAt: new Date(now + 3 * DAY) });
    const secondOwner = await addMember(team.org.id, "owner");
    await choose(team.org.id, secondOwner.id, []);

    const runs = await Promise.all(Array.from({ length: 6 }, () => queueExpiryReminders(getDb(), new Date(now))));
    expect(runs.reduce((sum, n) => sum + n, 0)).toBe(2);
    await eventually(
      () => smtp.to(team.owner.email).length + smtp.to(team.admin.email).length,
      (n) => n >= 2,
    );
    for (const person of [team.owner, team.admin]) {
      expect(smtp.to(person.email).map((mail) => mail.subject)).toEqual([`[${team.org.name}] API key “Quarterly sync” expires in 7 days`]);
    }
    expect(smtp.to(team.member.email)).toEqual([]);
    expect(smtp.to(secondOwner.email)).toEqual([]);

    // The short-lived key's day before: its one reminder.
    expect(await queueExpiryReminders(getDb(), new Date(now + 2.5 * DAY))).toBe(2);
    // Six days on (the key's dates moved back rather than waiting): the other's second reminder, once.
    await getDb()
      .update(apiKeys)
      .set({ expiresAt: new Date(now + 0.5 * DAY) })
      .where(eq(apiKeys.id, key.id));
    const later = await Promise.all(Array.from({ length: 6 }, () => queueExpiryReminders(getDb(), new Date(now))));
    const [mail] = await eventually(
      () => smtp.to(team.admin.email).filter((found) => found.subject!.includes("“Quarterly sync” expires in 12 hours")),
      (found) => found.length >= 1,
    );
    expect(mail!.text).toContain(`/${team.org.slug}/settings/api/keys/${key.id}`);
    const rows = await getDb().select().from(notificationEmails).where(eq(notificationEmails.orgId, team.org.id));
    expect(rows.map((row) => `${row.userId === team.admin.id ? "admin" : "owner"} ${row.details.keyName} ${row.details.days}`).sort()).toEqual(
      [
        "admin Quarterly sync 7",
        "owner Quarterly sync 7",
        "admin Quarterly sync 1",
        "owner Quarterly sync 1",
        "admin Short-lived 1",
        "owner Short-lived 1",
      ].sort(),
    );
    expect(later.reduce((sum, n) => sum + n, 0)).toBe(2);
  });

  it("name the time left when the email goes out, not the reminder's window: a key 3 days from expiry gets “in 3 days” from its 7-day reminder, on time or late", async () => {
    const team = await createTeam("pro");
    const now = Date.now();
    const createdAt = new Date(now - 80 * DAY);
    const threeDays = new Date(now + 3 * DAY + 3_600_000);
    // One key's 7-day reminder was queued three and a half days ago and goes out only now; the
    // other's is queued now, its first maintenance run inside that window.
    await insertKey(team.org.id, { name: "Late", createdBy: team.owner.id, createdAt, expiresAt: threeDays });
    await queueExpiryReminders(getDb(), new Date(now - 3.5 * DAY));
    await insertKey(team.org.id, { name: "On time", createdBy: team.owner.id, createdAt, expiresAt: threeDays });
    await queueExpiryReminders(getDb(), new Date(now));
    const mails = await eventually(
      () => smtp.to(team.owner.email),
      (found) => found.length >= 2,
    );
    expect(mails.map((found) => found.subject).sort()).toEqual([
      `[${team.org.name}] API key “Late” expires in 3 days`,
      `[${team.org.name}] API key “On time” expires in 3 days`,
    ]);
    const rows = await getDb().select().from(notificationEmails).where(eq(notificationEmails.orgId, team.org.id));
    expect(rows.map((row) => row.details.days)).toEqual([7, 7]);
  });
});
