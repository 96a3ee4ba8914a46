import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markAlertsReadAction, setAlertSettingsAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { getDb } from "@/db";
import { raiseKeyExpiryAlerts, raiseQuotaAlerts } from "@/lib/alerts/raise";
import { spreadMonthlyUsage } from "@/db/queries/monthly-usage";
import { countUnreadAlerts, listAlerts } from "@/db/queries/alerts";
import { activityLog, alerts, apiKeys, monthlyUsage, organizations } from "@/db/schema";
import { utcMonthStart } from "@/core/time";
import { createApiApp } from "@/lib/api/app";
import { addMember, createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { startApiServer } from "./helpers/api-server";
import { actAs } from "./helpers/session";
import { countedThisMonth } from "./helpers/usage";

// The gateway's clock, held still within a test: a burst that straddled a minute would meet two windows.
let frozenAt: number | null = null;
const clock = () => frozenAt ?? Date.now();
const api = startApiServer({ clock });
// A second gateway with its own memory of what it raised, as a second server process would have.
const otherProcess = createApiApp({ clock });
const PATH = "/v1/products?limit=1";

beforeEach(() => {
  frozenAt = Date.now();
  actAs(null);
});
afterEach(() => {
  frozenAt = null;
});

async function alertsOf(orgId: string) {
  return getDb().select().from(alerts).where(eq(alerts.orgId, orgId)).orderBy(asc(alerts.kind), asc(alerts.period));
}

/** This month's calls already at `calls`, laid out over the quota's shards as a plan change would. */
async function usedThisMonth(orgId: string, calls: number, quota: number) {
  await getDb()
    .insert(monthlyUsage)
    .values({ orgId, month: utcMonthStart(new Date()), shard: 0, count: calls, cap: 0 });
  await spreadMonthlyUsage(getDb(), orgId, quota);
}

/** Requests spread over `keys`, half through each gateway. */
function burst(keys: { value: string }[], count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const headers = { "X-API-Key": keys[i % keys.length]!.value };
      return i % 2 === 0 ? api.request(PATH, { headers }) : otherProcess.request(PATH, { headers });
    }),
  );
}

describe("quota alerts", () => {
  it("raises 80 % exactly once when 200 concurrent requests through two gateways cross it", async () => {
    const org = await createOrg("pro");
    const keys = await Promise.all(Array.from({ length: 10 }, () => insertKey(org.id)));
    await usedThisMonth(org.id, 7_950, 10_000);
    const responses = await burst(keys, 200);
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(200));
    expect(await countedThisMonth(org.id)).toBe(8_150);
    const month = utcMonthStart(new Date()).slice(0, 7);
    expect(await alertsOf(org.id)).toEqual([
      expect.objectContaining({ kind: "quota_threshold", period: `${month}:80`, details: { threshold: 80, quota: 10_000, calls: 8_000, month } }),
    ]);
  });

  it("raises 80, 90 and 100 % once each on a trial organization that runs out under 200 concurrent requests", async () => {
    const org = await createOrg("trial");
    const keys = [await insertKey(org.id), await insertKey(org.id)];
    const responses = await burst(keys, 200);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(50);
    const raised = await alertsOf(org.id);
    const quota = raised.filter((alert) => alert.kind === "quota_threshold");
    expect(quota.map((alert) => [alert.details.threshold, alert.details.calls])).toEqual([
      [100, 50],
      [80, 40],
      [90, 45],
    ]);
    // Each key was refused 40 times beyond its 60 a minute: a burst each, once.
    expect(
      raised
        .filter((alert) => alert.kind === "rate_limited")
        .map((alert) => alert.apiKeyId)
        .sort(),
    ).toEqual(keys.map((key) => key.id).sort());
  });

  it("keeps each threshold once when many writers raise it at once", async () => {
    const org = await createOrg("pro");
    const month = utcMonthStart(new Date());
    const raised = await Promise.all(
      Array.from({ length: 20 }, () => raiseQuotaAlerts(getDb(), { orgId: org.id, month, quota: 10_000, thresholds: [80, 90], at: new Date() })),
    );
    expect(raised.flat()).toHaveLength(2);
    expect(await alertsOf(org.id)).toHaveLength(2);
    // Next month is another period.
    await raiseQuotaAlerts(getDb(), { orgId: org.id, month: "2099-01-01", quota: 10_000, thresholds: [80], at: new Date() });
    expect(await alertsOf(org.id)).toHaveLength(3);
  });

  it("follows the organization's own thresholds, and none turns them off", async () => {
    const org = await createOrg("trial");
    const [key] = [await insertKey(org.id)];
    await getDb()
      .update(organizations)
      .set({ quotaAlertThresholds: [10] })
      .where(eq(organizations.id, org.id));
    await burst([key!], 5);
    expect(await alertsOf(org.id)).toEqual([expect.objectContaining({ details: expect.objectContaining({ threshold: 10, calls: 5 }) })]);

    const quiet = await createOrg("trial");
    const quietKey = await insertKey(quiet.id);
    await getDb().update(organizations).set({ quotaAlertThresholds: [] }).where(eq(organizations.id, quiet.id));
    await burst([quietKey], 60);
    expect(await countedThisMonth(quiet.id)).toBe(50);
    expect(await alertsOf(quiet.id)).toEqual([]);
  });
});

describe("rate-limit burst alerts", () => {
  it("raises once a key is refused more than the threshold within five minutes, once an hour", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 5 });
    const key = await insertKey(org.id);
    const quietKey = await insertKey(org.id);
    // 5 admitted, 10 refused: not more than the default of 10.
    const first = await burst([key], 15);
    expect(first.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await alertsOf(org.id)).toEqual([]);
    // The 11th refusal, a minute later (the same five minutes).
    frozenAt! += 60_000;
    await burst([key], 6);
    const raised = await alertsOf(org.id);
    expect(raised).toEqual([
      expect.objectContaining({ kind: "rate_limited", apiKeyId: key.id, details: { refused: 11, minutes: 5, rateLimit: 5, threshold: 10 } }),
    ]);
    // More refusals within the hour raise nothing new; another key's limit is its own.
    await burst([key], 30);
    await burst([quietKey], 5);
    expect(await alertsOf(org.id)).toHaveLength(1);
  });

  it("forgets refusals older than five minutes", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 5 });
    const key = await insertKey(org.id);
    await burst([key], 12); // 7 refused
    frozenAt! += 5 * 60_000;
    await burst([key], 12); // 7 more, but the first 7 are out of the five minutes
    expect(await alertsOf(org.id)).toEqual([]);
  });
});

describe("key expiry alerts", () => {
  it("raises expiring within 7 days and expired once per key, leaving out revoked, rolled and long-expired keys", async () => {
    const org = await createOrg("pro");
    const now = new Date();
    const day = 86_400_000;
    const expiring = await insertKey(org.id, { name: "Expiring", createdAt: new Date(now.getTime() - 30 * day), expiresAt: new Date(now.getTime() + 3 * day) });
    const expired = await insertKey(org.id, { name: "Expired", expiresAt: new Date(now.getTime() - day) });
    await insertKey(org.id, { name: "Later", expiresAt: new Date(now.getTime() + 30 * day) });
    await insertKey(org.id, { name: "Long gone", expiresAt: new Date(now.getTime() - 30 * day) });
    await insertKey(org.id, { name: "Revoked", revoked: true, expiresAt: new Date(now.getTime() + day) });
    const rolled = await insertKey(org.id, { name: "Rolled", expiresAt: new Date(now.getTime() + day) });
    const successor = await insertKey(org.id, { name: "Successor" });
    await getDb().update(apiKeys).set({ replacesKeyId: rolled.id }).where(eq(apiKeys.id, successor.id));

    const raised = await Promise.all(Array.from({ length: 4 }, () => raiseKeyExpiryAlerts(getDb(), now)));
    expect(raised.flat().filter((alert) => alert.orgId === org.id)).toHaveLength(2);
    expect((await alertsOf(org.id)).map(({ kind, apiKeyId }) => ({ kind, apiKeyId }))).toEqual([
      { kind: "key_expired", apiKeyId: expired.id },
      { kind: "key_expiring", apiKeyId: expiring.id },
    ]);
    // The expiring key, once expired, raises its second alert.
    await raiseKeyExpiryAlerts(getDb(), new Date(now.getTime() + 4 * day));
    expect((await alertsOf(org.id)).filter((alert) => alert.apiKeyId === expiring.id).map((alert) => alert.kind)).toEqual(["key_expired", "key_expiring"]);
  });

  it("does not warn that a key made on purpose with a lifetime of 7 days or less expires soon, and still says when it has expired", async () => {
    const org = await createOrg("pro");
    const now = new Date();
    const day = 86_400_000;
    const weekLong = await insertKey(org.id, { name: "Load test, 7 days", createdAt: now, expiresAt: new Date(now.getTime() + 7 * day) });
    const dayLong = await insertKey(org.id, {
      name: "Demo, 1 day",
      createdAt: new Date(now.getTime() - 3_600_000),
      expiresAt: new Date(now.getTime() + 23 * 3_600_000),
    });
    const eightDays = await insertKey(org.id, { name: "Sprint, 8 days", createdAt: now, expiresAt: new Date(now.getTime() + 8 * day) });

    await raiseKeyExpiryAlerts(getDb(), now);
    await raiseKeyExpiryAlerts(getDb(), new Date(now.getTime() + 3 * day));
    expect((await alertsOf(org.id)).map(({ kind, apiKeyId }) => ({ kind, apiKeyId }))).toEqual([
      { kind: "key_expired", apiKeyId: dayLong.id },
      // Made outside the window, it entered it a day later: that is worth a warning.
      { kind: "key_expiring", apiKeyId: eightDays.id },
    ]);
    await raiseKeyExpiryAlerts(getDb(), new Date(now.getTime() + 7 * day + 1_000));
    expect((await alertsOf(org.id)).filter((alert) => alert.apiKeyId === weekLong.id).map((alert) => alert.kind)).toEqual(["key_expired"]);
  });
});

describe("the bell: unread counts and mark as read", () => {
  it("keeps read state per person, marks one or all, and refuses another organization's alert", async () => {
    const team = await createTeam("pro");
    const month = utcMonthStart(new Date());
    await raiseQuotaAlerts(getDb(), { orgId: team.org.id, month, quota: 10_000, thresholds: [80, 90, 100], at: new Date() });
    const [newest] = await listAlerts(team.org.id, team.member.id, 20);
    expect(await countUnreadAlerts(team.org.id, team.member.id)).toBe(3);

    actAs(team.member.id);
    expect(await markAlertsReadAction(null, { orgId: team.org.id, alertId: newest!.id })).toEqual({ ok: true, data: { matched: 1 } });
    expect(await countUnreadAlerts(team.org.id, team.member.id)).toBe(2);
    expect(await countUnreadAlerts(team.org.id, team.owner.id)).toBe(3);
    expect((await listAlerts(team.org.id, team.member.id, 20)).map((alert) => alert.read)).toEqual([true, false, false]);

    const other = await createTeam("pro");
    await raiseQuotaAlerts(getDb(), { orgId: other.org.id, month, quota: 10_000, thresholds: [80], at: new Date() });
    const [foreign] = await listAlerts(other.org.id, other.owner.id, 1);
    expect(await markAlertsReadAction(null, { orgId: team.org.id, alertId: foreign!.id })).toEqual({ ok: false, error: "This alert was not found." });
    expect(await countUnreadAlerts(other.org.id, team.member.id)).toBe(1);

    expect(await markAlertsReadAction(null, { orgId: team.org.id, alertId: "all" })).toEqual({ ok: true, data: { matched: 3 } });
    expect(await countUnreadAlerts(team.org.id, team.member.id)).toBe(0);
    // Reading writes no history: it changes nothing of the organization's.
    expect(await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id))).toEqual([]);

    actAs(team.guest.id);
    expect(await markAlertsReadAction(null, { orgId: team.org.id, alertId: "all" })).toEqual({
      ok: false,
      error: "Guests cannot see the organization's alerts.",
    });
    expect(await markAlertsReadAction(null, { orgId: team.org.id, alertId: "first" })).toMatchObject({
      ok: false,
      fieldErrors: { alertId: ["Name an alert."] },
    });
  });
});

describe("alert settings", () => {
  it("lets an admin change the thresholds, written to the history with what changed", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const saved = await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "90, 75%", rateLimitAlertThreshold: "10" }));
    expect(saved).toEqual({ ok: true, data: { quotaAlertThresholds: [75, 90], rateLimitAlertThreshold: 10 } });
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "alert_settings.changed")));
    expect(entry).toMatchObject({
      actorUserId: team.admin.id,
      before: { quotaAlertThresholds: "80 %, 90 %, 100 %" },
      after: { quotaAlertThresholds: "75 %, 90 %" },
    });

    expect(await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "75, 90", rateLimitAlertThreshold: "10" }))).toEqual({
      ok: false,
      error: "The alert settings already say this: nothing to save.",
    });
    expect((await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "", rateLimitAlertThreshold: "25" }))).ok).toBe(true);
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org).toMatchObject({ quotaAlertThresholds: [], rateLimitAlertThreshold: 25 });
  });

  it.each([
    [{ quotaAlertThresholds: "0" }, "quotaAlertThresholds", '"0" is not a whole percentage from 1 to 100.'],
    [{ quotaAlertThresholds: "101" }, "quotaAlertThresholds", '"101" is not a whole percentage from 1 to 100.'],
    [{ quotaAlertThresholds: "80.5" }, "quotaAlertThresholds", '"80.5" is not a whole percentage from 1 to 100.'],
    [{ quotaAlertThresholds: "eighty" }, "quotaAlertThresholds", '"eighty" is not a whole percentage from 1 to 100.'],
    [{ quotaAlertThresholds: "80, 80" }, "quotaAlertThresholds", "Name each percentage once."],
    [{ quotaAlertThresholds: "10 20 30 40 50 60" }, "quotaAlertThresholds", "Use at most 5 percentages."],
    [{ quotaAlertThresholds: "1,".repeat(60) }, "quotaAlertThresholds", "Use at most five percentages, such as 80, 90, 100."],
    [{ rateLimitAlertThreshold: "0" }, "rateLimitAlertThreshold", "Use at least 1."],
    [{ rateLimitAlertThreshold: "1.5" }, "rateLimitAlertThreshold", "Enter a whole number."],
    [{ rateLimitAlertThreshold: "100001" }, "rateLimitAlertThreshold", "Use at most 100,000."],
  ])("refuses %j on its field and changes nothing", async (input, field, message) => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const result = await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "80, 90", rateLimitAlertThreshold: "10", ...input }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { [field]: [message] } });
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org).toMatchObject({ quotaAlertThresholds: [80, 90, 100], rateLimitAlertThreshold: 10 });
  });

  it("refuses a member, and a user of another organization", async () => {
    const team = await createTeam("pro");
    actAs(team.member.id);
    expect(await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "50", rateLimitAlertThreshold: "10" }))).toEqual({
      ok: false,
      error: "Only owners and admins can change alert settings and webhooks.",
    });
    const outsider = await addMember((await createOrg("pro")).id, "owner");
    actAs(outsider.id);
    expect(await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "50", rateLimitAlertThreshold: "10" }))).toEqual({
      ok: false,
      error: "Organization not found.",
    });
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.quotaAlertThresholds).toEqual([80, 90, 100]);
  });
});
