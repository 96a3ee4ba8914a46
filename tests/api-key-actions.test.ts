import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKeyAction, renameApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { getDb } from "@/db";
import { listApiKeys } from "@/db/queries/api-keys";
import { activityLog, apiKeys } from "@/db/schema";
import type { Mode } from "@/core/enums";
import { hashApiKey } from "@/lib/keys/format";
import { addMember, createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";

async function keysOf(orgId: string) {
  return getDb().select().from(apiKeys).where(eq(apiKeys.orgId, orgId));
}

async function create(orgId: string, name: string, mode?: Mode | "sandbox") {
  return createApiKeyAction(null, form({ orgId, name, ...(mode ? { mode } : {}) }));
}

describe("creating API keys", () => {
  beforeEach(() => actAs(null));

  it.each(["owner", "admin"] as const)("lets an %s create a key and shows the value once", async (role) => {
    const team = await createTeam("pro");
    actAs(team.byRole[role].id);
    const result = await create(team.org.id, "Production billing server");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.value).toMatch(/^ik_[0-9A-Za-z]{32}$/);
    expect(result.data.key).toMatchObject({ name: "Production billing server", status: "active", createdByName: team.byRole[role].name });
    const [row] = await keysOf(team.org.id);
    expect(row!.keyHash).toBe(hashApiKey(result.data.value));
    const activity = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "api_key.created")));
    expect(activity).toHaveLength(1);
  });

  it.each([
    ["member", "Only owners and admins can create API keys."],
    ["guest", "Only owners and admins can create API keys."],
  ] as const)("refuses creation by a %s and writes nothing", async (role, message) => {
    const team = await createTeam("pro");
    actAs(team.byRole[role].id);
    expect(await create(team.org.id, "Staging")).toEqual({ ok: false, error: message });
    expect(await keysOf(team.org.id)).toHaveLength(0);
  });

  it("refuses a signed-out caller", async () => {
    const team = await createTeam("pro");
    expect(await create(team.org.id, "Staging")).toMatchObject({ ok: false, error: "Your session has ended. Sign in again." });
    expect(await keysOf(team.org.id)).toHaveLength(0);
  });

  it("treats another organization as not found", async () => {
    const team = await createTeam("pro");
    const other = await createOrg("pro");
    actAs(team.owner.id);
    expect(await create(other.id, "Sneaky")).toEqual({ ok: false, error: "Organization not found." });
    expect(await keysOf(other.id)).toHaveLength(0);
  });

  it.each([
    ["empty", ""],
    ["whitespace only", "   \t  "],
    ["101 characters", "x".repeat(101)],
    ["a control character", "Billing\u0007server"],
    ["a line break", "Billing\nserver"],
  ])("refuses a name that is %s and writes nothing", async (_label, name) => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const result = await create(team.org.id, name);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors?.name?.[0]).toBeTruthy();
    expect(await keysOf(team.org.id)).toHaveLength(0);
  });

  it.each([
    ["emoji", "🔑".repeat(100)],
    ["CJK", "請求書".repeat(33) + "鍵"],
    ["family emoji", "👨‍👩‍👧‍👦".repeat(100)],
  ])("accepts 100 characters of %s", async (_label, name) => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const result = await create(team.org.id, name);
    expect(result.ok).toBe(true);
    expect((await keysOf(team.org.id))[0]!.name).toBe(name);
  });

  it("trims the name", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    await create(team.org.id, "  Staging  ");
    expect((await keysOf(team.org.id))[0]!.name).toBe("Staging");
  });

  it.each([
    ["trial", 2, "Your Trial plan allows 2 active live keys (test keys are counted apart)."],
    ["pro", 10, "Your Pro plan allows 10 active live keys (test keys are counted apart)."],
  ] as const)("stops a %s organization at %i active keys, not counting revoked or expired ones", async (plan, max, message) => {
    const org = await createOrg(plan);
    const owner = await addMember(org.id, "owner");
    await insertKey(org.id, { revoked: true });
    await insertKey(org.id, { expiresAt: new Date(Date.now() - 1000) });
    actAs(owner.id);
    for (let i = 0; i < max; i++) expect((await create(org.id, `Server ${i + 1}`)).ok).toBe(true);
    const refused = await create(org.id, "One too many");
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain(message);
    expect(await keysOf(org.id)).toHaveLength(max + 2);
  });

  it("refuses any key for a solo organization, naming the plans with API access", async () => {
    const org = await createOrg("solo");
    const owner = await addMember(org.id, "owner");
    actAs(owner.id);
    const result = await create(org.id, "Website");
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/Solo plan has no API access.*Trial, Pro, Enterprise/);
    expect(await keysOf(org.id)).toHaveLength(0);
  });

  it("has no maximum on enterprise", async () => {
    const org = await createOrg("enterprise");
    const admin = await addMember(org.id, "admin");
    actAs(admin.id);
    for (let i = 0; i < 15; i++) expect((await create(org.id, `Region ${i}`)).ok).toBe(true);
  });

  it("holds the maximum when creations race", async () => {
    const org = await createOrg("trial");
    const owner = await addMember(org.id, "owner");
    actAs(owner.id);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(org.id, `Racer ${i}`)));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(await keysOf(org.id)).toHaveLength(2);
  });
});
describe("creating a key with an expiry", () => {
  beforeEach(() => actAs(null));

  it("stores 30 days from now, to the second, and records it in the activity entry", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const before = Date.now();
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", expiresIn: "30" }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expiresAt = Date.parse(result.data.key.expiresAt!);
    expect(expiresAt % 1000).toBe(0);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 30 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "api_key.created")));
    expect(entry!.after).toMatchObject({ name: "Reporting job", expiresAt: result.data.key.expiresAt });
  });

  it("ends a chosen day at the next day's 00:00 UTC, and a key without a choice never expires", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const dated = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Contractor", expiresIn: "date", expiresOn: day }));
    expect(dated.ok && dated.data.key.expiresAt).toBe(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString());
    const lasting = await create(team.org.id, "Production");
    expect(lasting.ok && lasting.data.key.expiresAt).toBeNull();
  });

  it.each([
    ["a day in the past", { expiresIn: "date", expiresOn: "2020-01-01" }, "expiresOn", "Choose today or a later day: a key cannot be created already expired."],
    ["more than five years ahead", { expiresIn: "date", expiresOn: "2099-01-01" }, "expiresOn", "at most 5 years"],
    ["a custom choice without a day", { expiresIn: "date" }, "expiresOn", "Choose the day the key expires."],
    ["a day that is not a date", { expiresIn: "date", expiresOn: "31/01/2027" }, "expiresOn", "Choose a date such as 2027-01-31."],
    ["an unknown choice", { expiresIn: "45" }, "expiresIn", "Choose when the key expires."],
  ])("refuses %s with a message on the field and creates nothing", async (_, fields, field, message) => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Contractor", ...fields }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors?.[field]?.[0]).toContain(message);
    expect(await keysOf(team.org.id)).toHaveLength(0);
  });

  it("lists a key past its expiry as expired, and a revoked one as revoked whatever its expiry", async () => {
    const org = await createOrg("pro");
    const { id: expired } = await insertKey(org.id, { name: "Old", expiresAt: new Date(Date.now() - 1000) });
    const { id: revoked } = await insertKey(org.id, { name: "Gone", revoked: true, expiresAt: new Date(Date.now() - 1000) });
    const { id: active } = await insertKey(org.id, { name: "Soon", expiresAt: new Date(Date.now() + 86_400_000) });
    const status = Object.fromEntries((await listApiKeys(org.id)).map((key) => [key.id, key.status]));
    expect(status).toEqual({ [expired]: "expired", [revoked]: "revoked", [active]: "active" });
  });
});

describe("revoking API keys", () => {
  it("lets the owner revoke, recording who and when", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.owner.id);
    expect(await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }))).toEqual({ ok: true, data: { id: key.id, name: "Staging" } });
    const [row] = await keysOf(team.org.id);
    expect(row!.revokedBy).toBe(team.owner.id);
    expect(row!.revokedAt).toBeInstanceOf(Date);
  });

  it.each([
    ["admin", "Only owners can revoke API keys."],
    ["member", "Only owners can revoke API keys."],
    ["guest", "Only owners can revoke API keys."],
  ] as const)("refuses revocation by an %s and changes nothing", async (role, message) => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id);
    actAs(team.byRole[role].id);
    expect(await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }))).toEqual({ ok: false, error: message });
    expect((await keysOf(team.org.id))[0]!.revokedAt).toBeNull();
  });

  it("refuses revoking twice", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.owner.id);
    await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }));
    const before = (await keysOf(team.org.id))[0]!.revokedAt;
    expect(await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }))).toEqual({ ok: false, error: '"Staging" is already revoked.' });
    expect((await keysOf(team.org.id))[0]!.revokedAt).toEqual(before);
  });

  it("refuses another organization's key as not found", async () => {
    const team = await createTeam("pro");
    const other = await createOrg("pro");
    const foreignKey = await insertKey(other.id);
    actAs(team.owner.id);
    expect(await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: foreignKey.id }))).toEqual({
      ok: false,
      error: "API key not found in this organization.",
    });
    expect(await revokeApiKeyAction(null, form({ orgId: other.id, keyId: foreignKey.id }))).toEqual({ ok: false, error: "Organization not found." });
    expect((await keysOf(other.id))[0]!.revokedAt).toBeNull();
  });
});

describe("revoke reasons", () => {
  async function entriesOf(orgId: string, action: string) {
    return getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, action)));
  }

  it("stores the reason and note on the key and in the history entry", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.owner.id);
    const note = "Pasted in a public gist\r\non Monday";
    expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, reason: "compromised", note: `  ${note}  ` }))).ok).toBe(true);
    expect((await keysOf(team.org.id))[0]).toMatchObject({ revokeReason: "compromised", revokeNote: note });
    const [entry] = await entriesOf(team.org.id, "api_key.revoked");
    expect(entry).toMatchObject({ before: { status: "active" }, after: { status: "revoked", reason: "compromised", note } });
    const [listed] = await listApiKeys(team.org.id);
    expect(listed).toMatchObject({ revokeReason: "compromised", revokeNote: note });
  });

  it("takes empty fields as no reason", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id);
    actAs(team.owner.id);
    expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, reason: "", note: "   " }))).ok).toBe(true);
    expect((await keysOf(team.org.id))[0]).toMatchObject({ revokeReason: null, revokeNote: null });
    expect((await entriesOf(team.org.id, "api_key.revoked"))[0]!.after).toEqual({ status: "revoked" });
  });

  it.each([
    [{ reason: "other" }, "note", "Say in a few words why the key is revoked."],
    [{ note: "Leaked" }, "reason", "Choose a reason for the note."],
    [{ reason: "stolen" }, "reason", "Choose one of the reasons."],
    [{ reason: "other", note: "x".repeat(501) }, "note", "Use at most 500 characters."],
    [{ reason: "other", note: "tab\there" }, "note", "Remove control characters such as tabs."],
  ] as const)("refuses %j with a message on the %s field and changes nothing", async (fields, field, message) => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id);
    actAs(team.owner.id);
    const result = await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, ...fields }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors?.[field]).toEqual([message]);
    expect((await keysOf(team.org.id))[0]!.revokedAt).toBeNull();
    expect(await entriesOf(team.org.id, "api_key.revoked")).toHaveLength(0);
  });
});

describe("renaming API keys", () => {
  async function renames(orgId: string) {
    return getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, "api_key.renamed")));
  }

  it.each(["owner", "admin"] as const)("lets an %s rename a key, recording the old and new name", async (role) => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.byRole[role].id);
    expect(await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, name: "  Staging (EU)  " }))).toEqual({
      ok: true,
      data: { id: key.id, name: "Staging (EU)" },
    });
    expect((await keysOf(team.org.id))[0]!.name).toBe("Staging (EU)");
    const [entry] = await renames(team.org.id);
    expect(entry).toMatchObject({
      actorUserId: team.byRole[role].id,
      targetId: key.id,
      targetName: "Staging (EU)",
      before: { name: "Staging" },
      after: { name: "Staging (EU)" },
    });
  });

  it.each([
    [{ name: "" }, "Enter a name for the key."],
    [{ name: "a".repeat(101) }, "Use at most 100 characters."],
    [{ name: "line\nbreak" }, "Remove control characters such as tabs or line breaks."],
  ])("refuses %j with a field error and changes nothing", async (fields, message) => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.owner.id);
    const result = await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, ...fields }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors?.name).toEqual([message]);
    expect((await keysOf(team.org.id))[0]!.name).toBe("Staging");
    expect(await renames(team.org.id)).toHaveLength(0);
  });

  it("refuses the same name, a revoked key and another organization's key, recording nothing", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    const revoked = await insertKey(team.org.id, { name: "Old importer", revoked: true });
    const foreign = await insertKey((await createOrg("pro")).id, { name: "Theirs" });
    actAs(team.owner.id);
    expect(await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, name: "Staging" }))).toEqual({
      ok: false,
      error: 'The key is already named "Staging".',
    });
    expect(await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: revoked.id, name: "New" }))).toEqual({
      ok: false,
      error: '"Old importer" is revoked: a revoked key keeps its name so its history reads as it happened.',
    });
    expect(await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: foreign.id, name: "Mine" }))).toEqual({
      ok: false,
      error: "API key not found in this organization.",
    });
    expect((await getDb().select().from(apiKeys).where(eq(apiKeys.id, foreign.id)))[0]!.name).toBe("Theirs");
    expect(await renames(team.org.id)).toHaveLength(0);
  });
});

describe("rolling API keys", () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const roll = (orgId: string, keyId: string, overlap = "1h") => rollApiKeyAction(null, form({ orgId, keyId, overlap }));

  it("mints a replacement with the same name, links the two, ends the old one after the overlap and records both", async () => {
    const team = await createTeam("pro");
    const old = await insertKey(team.org.id, { name: "Production billing server" });
    actAs(team.owner.id);
    const before = Date.now();
    const result = await roll(team.org.id, old.id, "24h");
    if (!result.ok) throw new Error(result.error);
    const { key, value, oldKey } = result.data;
    expect(value).toMatch(/^ik_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({
      name: "Production billing server",
      status: "active",
      expiresAt: null,
      replaces: { id: old.id, name: "Production billing server" },
    });
    const endsAt = Date.parse(oldKey.endsAt);
    expect(endsAt).toBeGreaterThanOrEqual(Math.floor((before + DAY) / 1000) * 1000);
    expect(endsAt).toBeLessThanOrEqual(Date.now() + DAY);
    const listed = await listApiKeys(team.org.id);
    expect(listed.find((k) => k.id === old.id)).toMatchObject({ status: "active", expiresAt: oldKey.endsAt, replacedBy: { id: key.id, hint: key.hint } });
    expect((await keysOf(team.org.id)).find((row) => row.id === key.id)!.keyHash).toBe(hashApiKey(value));

    const entries = await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id));
    expect(entries.find((e) => e.action === "api_key.rolled")).toMatchObject({
      targetId: old.id,
      actorUserId: team.owner.id,
      before: { expiresAt: null },
      after: { expiresAt: oldKey.endsAt, replacedBy: key.hint },
    });
    expect(entries.find((e) => e.action === "api_key.created")).toMatchObject({ targetId: key.id, after: { replaces: old.hint } });
  });

  it("gives the replacement the old key's lifetime, and never extends the old key past its own expiry", async () => {
    const team = await createTeam("pro");
    const now = Date.now();
    const thirtyDay = await insertKey(team.org.id, { createdAt: new Date(now - 10 * DAY), expiresAt: new Date(now + 20 * DAY) });
    const endingSoon = await insertKey(team.org.id, { expiresAt: new Date(Math.floor((now + 10 * 60_000) / 1000) * 1000) });
    actAs(team.owner.id);
    const first = await roll(team.org.id, thirtyDay.id, "1h");
    if (!first.ok) throw new Error(first.error);
    const lifetime = Date.parse(first.data.key.expiresAt!) - Date.parse(first.data.key.createdAt);
    expect(Math.abs(lifetime - 30 * DAY)).toBeLessThan(2000);
    const second = await roll(team.org.id, endingSoon.id, "7d");
    if (!second.ok) throw new Error(second.error);
    expect(second.data.oldKey.endsAt).toBe(new Date(Math.floor((now + 10 * 60_000) / 1000) * 1000).toISOString());
  });

  it("refuses a revoked, an expired, an already rolled and another organization's key, changing nothing", async () => {
    const team = await createTeam("pro");
    const revoked = await insertKey(team.org.id, { name: "Old importer", revoked: true });
    const expired = await insertKey(team.org.id, { name: "Contractor", expiresAt: new Date(Date.now() - 1000) });
    const active = await insertKey(team.org.id, { name: "Staging" });
    const foreign = await insertKey((await createOrg("pro")).id);
    actAs(team.owner.id);
    expect((await roll(team.org.id, active.id)).ok).toBe(true);
    const keysBefore = await keysOf(team.org.id);
    expect(await roll(team.org.id, revoked.id)).toEqual({ ok: false, error: '"Old importer" is revoked: create a new key instead.' });
    expect(await roll(team.org.id, expired.id)).toEqual({ ok: false, error: '"Contractor" has expired: create a new key instead.' });
    expect(await roll(team.org.id, active.id)).toEqual({ ok: false, error: '"Staging" was rolled already: roll its replacement instead.' });
    expect(await roll(team.org.id, foreign.id)).toEqual({ ok: false, error: "API key not found in this organization." });
    expect(await roll(team.org.id, active.id, "2h")).toMatchObject({ ok: false, fieldErrors: { overlap: ["Choose how long the old key keeps working."] } });
    expect(await keysOf(team.org.id)).toEqual(keysBefore);
  });

  it("rolls a key once when two rolls race", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id);
    actAs(team.owner.id);
    const results = await Promise.all([roll(team.org.id, key.id), roll(team.org.id, key.id), roll(team.org.id, key.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await keysOf(team.org.id)).toHaveLength(2);
  });

  it("rolls at the plan's key limit: the old key is on its way out", async () => {
    const team = await createTeam("trial");
    await insertKey(team.org.id);
    const second = await insertKey(team.org.id);
    actAs(team.owner.id);
    expect((await roll(team.org.id, second.id)).ok).toBe(true);
  });
});

describe("live and test keys (docs/features/test-mode.md#keys)", () => {
  beforeEach(() => actAs(null));

  // The key.created event's mode: tests/webhooks.test.ts.
  it("creates a test key: an ik_test_ value shown once, its mode on the key and in the history", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const result = await create(team.org.id, "CI", "test");
    if (!result.ok) throw new Error(result.error);
    expect(result.data.value).toMatch(/^ik_test_[0-9A-Za-z]{32}$/);
    expect(result.data.key).toMatchObject({ name: "CI", mode: "test", hint: `ik_test_${result.data.value.slice(8, 12)}…${result.data.value.slice(-4)}` });
    expect((await listApiKeys(team.org.id)).map((key) => key.mode)).toEqual(["test"]);
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "api_key.created")));
    expect(entry!.after).toMatchObject({ name: "CI", mode: "test", hint: result.data.key.hint });
    expect(JSON.stringify(entry)).not.toContain(result.data.value.slice(8));
  });

  it("creates a live key when the form sends no mode, and refuses a mode that is neither", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const live = await create(team.org.id, "Production");
    expect(live).toMatchObject({ ok: true, data: { key: { mode: "live" } } });
    expect(await create(team.org.id, "Sandbox", "sandbox")).toMatchObject({ ok: false, fieldErrors: { mode: ["Choose a live or a test key."] } });
    expect(await keysOf(team.org.id)).toHaveLength(1);
  });

  it.each([
    ["live", "test"],
    ["test", "live"],
  ] as const)("with %s keys at the trial maximum, refuses another of them and still creates %s keys up to the same maximum", async (full, other) => {
    const team = await createTeam("trial");
    // Revoked and expired keys of the full mode are not counted.
    await insertKey(team.org.id, { mode: full, revoked: true });
    await insertKey(team.org.id, { mode: full, expiresAt: new Date(Date.now() - 1000) });
    await insertKey(team.org.id, { mode: full });
    await insertKey(team.org.id, { mode: full });
    actAs(team.owner.id);
    const said = (mode: Mode) =>
      `Your Trial plan allows 2 active ${mode} keys (${mode === "live" ? "test" : "live"} keys are counted apart). Revoke a ${mode} key you no longer use, or change the plan.`;
    expect(await create(team.org.id, "One too many", full)).toEqual({ ok: false, error: said(full), fieldErrors: { mode: [said(full)] } });

    for (const name of ["First", "Second"]) expect(await create(team.org.id, name, other)).toMatchObject({ ok: true, data: { key: { mode: other } } });
    expect(await create(team.org.id, "Third", other)).toEqual({ ok: false, error: said(other), fieldErrors: { mode: [said(other)] } });
    const rows = await keysOf(team.org.id);
    expect(rows.filter((row) => row.mode === full)).toHaveLength(4);
    expect(rows.filter((row) => row.mode === other)).toHaveLength(2);
  });

  it("refuses a test key on solo as it refuses a live one", async () => {
    const org = await createOrg("solo");
    actAs((await addMember(org.id, "owner")).id);
    expect(await create(org.id, "CI", "test")).toMatchObject({ ok: false, error: expect.stringMatching(/Solo plan has no API access/) });
    expect(await keysOf(org.id)).toHaveLength(0);
  });

  it("rolls a test key into a test key, and a live key into a live key", async () => {
    const team = await createTeam("trial");
    // Both modes at the maximum: a roll is never refused for it.
    const [test] = [await insertKey(team.org.id, { name: "CI", mode: "test" }), await insertKey(team.org.id, { mode: "test" })];
    const [live] = [await insertKey(team.org.id, { name: "Billing", mode: "live" }), await insertKey(team.org.id, { mode: "live" })];
    actAs(team.owner.id);
    for (const [old, mode, pattern] of [
      [test!, "test", /^ik_test_[0-9A-Za-z]{32}$/],
      [live!, "live", /^ik_[0-9A-Za-z]{32}$/],
    ] as const) {
      const rolled = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: old.id, overlap: "1h" }));
      if (!rolled.ok) throw new Error(rolled.error);
      expect(rolled.data.value).toMatch(pattern);
      expect(rolled.data.key).toMatchObject({ mode, replaces: { id: old.id } });
      const [entry] = await getDb()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.targetId, rolled.data.key.id), eq(activityLog.action, "api_key.created")));
      expect(entry!.after).toMatchObject({ mode, replaces: old.hint });
    }
  });
});

describe("the key value after creation", () => {
  it("leaves no trace but its hash and hint, and no query returns it", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const result = await create(team.org.id, "Production");
    if (!result.ok) throw new Error(result.error);
    const value = result.data.value;
    const secretPart = value.slice(3);
    const [row] = await keysOf(team.org.id);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secretPart);
    expect(stored).not.toContain(secretPart.slice(4, -4));
    expect(row!.keyHash).toBe(hashApiKey(value));
    expect(row!.hint).toBe(`ik_${secretPart.slice(0, 4)}…${secretPart.slice(-4)}`);
    const listed = JSON.stringify(await listApiKeys(team.org.id));
    expect(listed).not.toContain(secretPart);
    expect(listed).not.toContain(row!.keyHash);
    actAs(team.owner.id);
    const revoked = JSON.stringify(await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: row!.id })));
    expect(revoked).not.toContain(secretPart);
    const activity = JSON.stringify(await getDb().select().from(activityLog).where(eq(activityLog.orgId, team.org.id)));
    expect(activity).not.toContain(secretPart);
  });
});
