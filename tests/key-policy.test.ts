import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKeyAction, rollApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { setKeyPolicyAction } from "@/app/[orgSlug]/settings/api/policy/actions";
import { getDb } from "@/db";
import { getKeyPolicy } from "@/db/queries/organizations";
import { activityLog, apiKeys } from "@/db/schema";
import {
  allowedExpiryChoices,
  defaultExpiryChoice,
  fitToPolicy,
  keyOutsidePolicy,
  lastCustomExpiryDay,
  NO_KEY_POLICY,
  policyBreach,
  type KeyPolicy,
} from "@/lib/keys/policy";
import { createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";

const DAY = 86_400_000;
const NOW = new Date("2026-11-25T10:30:00Z");
const MAX_90: KeyPolicy = { maxLifetimeDays: 90, expiryRequired: true };
const MUST_EXPIRE: KeyPolicy = { maxLifetimeDays: null, expiryRequired: true };

describe("the policy's rules", () => {
  it("accepts everything without a policy", () => {
    expect(policyBreach(NO_KEY_POLICY, { createdAt: NOW, expiresAt: null })).toBeNull();
    expect(allowedExpiryChoices(NO_KEY_POLICY, NOW)).toEqual(["never", "7", "30", "60", "90", "365", "date"]);
    expect(defaultExpiryChoice(NO_KEY_POLICY, NOW)).toBe("never");
    expect(lastCustomExpiryDay(NO_KEY_POLICY, NOW)).toBeNull();
  });

  it("measures a maximum lifetime to the end of the UTC day it reaches", () => {
    expect(policyBreach(MAX_90, { createdAt: NOW, expiresAt: new Date(NOW.getTime() + 90 * DAY) })).toBeNull();
    // A custom date on the 90th day ends at the next day's 00:00 UTC: inside.
    expect(policyBreach(MAX_90, { createdAt: NOW, expiresAt: new Date("2027-02-24T00:00:00Z") })).toBeNull();
    expect(policyBreach(MAX_90, { createdAt: NOW, expiresAt: new Date("2027-02-24T00:00:01Z") })).toBe("It lives longer than the key policy's 90 days.");
    expect(policyBreach(MAX_90, { createdAt: NOW, expiresAt: null })).toBe("It never expires, and the key policy requires an expiry.");
    expect(lastCustomExpiryDay(MAX_90, NOW)).toBe("2027-02-23");
    expect(allowedExpiryChoices(MAX_90, NOW)).toEqual(["7", "30", "60", "90", "date"]);
    expect(defaultExpiryChoice(MAX_90, NOW)).toBe("90");
    expect(defaultExpiryChoice({ maxLifetimeDays: 30, expiryRequired: true }, NOW)).toBe("30");
  });

  it("implies an expiry from a maximum even when the flag says otherwise", () => {
    expect(policyBreach({ maxLifetimeDays: 366, expiryRequired: false }, { createdAt: NOW, expiresAt: null })).not.toBeNull();
  });

  it("brings a rolled lifetime within the policy, and keeps one that fits", () => {
    const fits = new Date(NOW.getTime() + 30 * DAY);
    expect(fitToPolicy(MAX_90, fits, NOW)).toEqual(fits);
    expect(fitToPolicy(MAX_90, null, NOW)).toEqual(new Date(NOW.getTime() + 90 * DAY));
    expect(fitToPolicy(MAX_90, new Date(NOW.getTime() + 365 * DAY), NOW)).toEqual(new Date(NOW.getTime() + 90 * DAY));
    expect(fitToPolicy(MUST_EXPIRE, null, NOW)).toEqual(new Date(NOW.getTime() + 90 * DAY));
    expect(fitToPolicy(NO_KEY_POLICY, null, NOW)).toBeNull();
  });

  it("marks only keys in service", () => {
    const key = { status: "active", replacedBy: null, createdAt: NOW.toISOString(), expiresAt: null };
    expect(keyOutsidePolicy(MUST_EXPIRE, key)).not.toBeNull();
    expect(keyOutsidePolicy(MUST_EXPIRE, { ...key, status: "revoked" })).toBeNull();
    expect(keyOutsidePolicy(MUST_EXPIRE, { ...key, replacedBy: { id: "key_x" } })).toBeNull();
  });
});

describe("setting the key policy", () => {
  let team: Awaited<ReturnType<typeof createTeam>>;
  beforeEach(async () => {
    team = await createTeam("pro");
    actAs(team.owner.id);
  });

  it("stores it, records before and after, and a maximum implies the expiry", async () => {
    const result = await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "180" }));
    expect(result).toEqual({ ok: true, data: { maxLifetimeDays: 180, expiryRequired: true } });
    expect(await getKeyPolicy(team.org.id)).toEqual({ maxLifetimeDays: 180, expiryRequired: true });
    const [entry] = await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id));
    expect(entry).toMatchObject({
      action: "key_policy.changed",
      targetType: "organization",
      actorUserId: team.owner.id,
      before: { maxLifetimeDays: null, expiryRequired: false },
      after: { maxLifetimeDays: 180, expiryRequired: true },
    });
    // Only what changed is recorded.
    expect((await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "30" }))).ok).toBe(true);
    const entries = await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id));
    expect(entries.map((e) => [e.before, e.after])).toContainEqual([{ maxLifetimeDays: 180 }, { maxLifetimeDays: 30 }]);
    const cleared = await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "none" }));
    expect(cleared).toEqual({ ok: true, data: { maxLifetimeDays: null, expiryRequired: false } });
  });

  it("takes the checkbox's value", async () => {
    expect(await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "none", expiryRequired: "on" }))).toEqual({
      ok: true,
      data: { maxLifetimeDays: null, expiryRequired: true },
    });
  });

  it.each([
    ["a lifetime not offered", { maxLifetimeDays: "45" }, "maxLifetimeDays", "Choose no maximum or 30, 90, 180, 366 days."],
    ["no lifetime", {}, "maxLifetimeDays", "Choose no maximum or 30, 90, 180, 366 days."],
    ["a checkbox value that is not one", { maxLifetimeDays: "none", expiryRequired: "maybe" }, "expiryRequired", "Say whether new keys must expire."],
  ])("refuses %s, changing nothing", async (_, fields, field, message) => {
    const result = await setKeyPolicyAction(null, form({ orgId: team.org.id, ...fields }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { [field]: [message] } });
    expect(await getKeyPolicy(team.org.id)).toEqual(NO_KEY_POLICY);
    expect(await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id))).toHaveLength(0);
  });

  it("refuses a change that changes nothing, recording nothing", async () => {
    expect(await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "none" }))).toEqual({
      ok: false,
      error: "The key policy already says this: nothing to save.",
    });
    expect(await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id))).toHaveLength(0);
  });
});

describe("the policy on creating and rolling keys", () => {
  let team: Awaited<ReturnType<typeof createTeam>>;
  beforeEach(async () => {
    team = await createTeam("pro");
    actAs(team.owner.id);
    expect((await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "90" }))).ok).toBe(true);
    actAs(team.admin.id);
  });
  const keysOf = (orgId: string) => getDb().select().from(apiKeys).where(eq(apiKeys.orgId, orgId));

  it.each([
    ["a key without expiry", { expiresIn: "never" }, "expiresIn", "It never expires, and the key policy requires an expiry."],
    ["a key for a year", { expiresIn: "365" }, "expiresIn", "It lives longer than the key policy's 90 days."],
    [
      "a custom day past the maximum",
      { expiresIn: "date", expiresOn: new Date(Date.now() + 92 * DAY).toISOString().slice(0, 10) },
      "expiresOn",
      "It lives longer than the key policy's 90 days.",
    ],
  ])("refuses %s with the reason on the field, creating nothing", async (_, fields, field, message) => {
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", ...fields }));
    expect(result).toMatchObject({
      ok: false,
      error: `This key would be outside your organization's key policy. ${message}`,
      fieldErrors: { [field]: [message] },
    });
    expect(await keysOf(team.org.id)).toHaveLength(0);
  });

  it("creates keys within it, up to the end of the 90th day", async () => {
    const lastDay = new Date(Date.now() + 90 * DAY).toISOString().slice(0, 10);
    expect((await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", expiresIn: "90" }))).ok).toBe(true);
    expect((await createApiKeyAction(null, form({ orgId: team.org.id, name: "Contractor", expiresIn: "date", expiresOn: lastDay }))).ok).toBe(true);
  });

  it("rolls a key made before the policy into a replacement that follows it", async () => {
    const legacy = await insertKey(team.org.id, { name: "Legacy sync" });
    actAs(team.owner.id);
    const before = Date.now();
    const result = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: legacy.id, overlap: "1h" }));
    if (!result.ok) throw new Error(result.error);
    const expiresAt = Date.parse(result.data.key.expiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 90 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY);
  });
});
