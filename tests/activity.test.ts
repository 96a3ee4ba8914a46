import { and, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createApiKeyAction,
  renameApiKeyAction,
  revokeApiKeyAction,
  rollApiKeyAction,
  updateKeyRestrictionsAction,
} from "@/app/[orgSlug]/settings/api/actions";
import { exportActivityCsv } from "@/app/[orgSlug]/settings/api/activity/export/export-activity-csv";
import { loadActivity } from "@/app/[orgSlug]/settings/api/activity/load-activity";
import { loadAuditLog } from "@/app/[orgSlug]/settings/api/audit/load-audit-log";
import { setAlertSettingsAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { setKeyPolicyAction } from "@/app/[orgSlug]/settings/api/policy/actions";
import { createWebhookEndpointAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { changePlanAction, setRateLimitAction } from "@/app/[orgSlug]/settings/plan/actions";
import { getDb } from "@/db";
import { recordKeyExpiries } from "@/db/queries/key-expiries";
import { listActivity, type ActivityFilters } from "@/db/queries/activity";
import { createUserWithOrganization } from "@/lib/auth/sign-up";
import { activityLog, apiKeys, organizations, users, webhookEndpoints } from "@/db/schema";
import { encodeCursor } from "@/lib/audit-filters";
import { createTeam, form, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { actAs, readAs, testSession } from "./helpers/session";

const DAY = 86_400_000;

async function entriesOf(orgId: string) {
  return getDb().select().from(activityLog).where(eq(activityLog.orgId, orgId)).orderBy(activityLog.id);
}

describe("every change writes its history entry", () => {
  beforeEach(() => actAs(null));

  it("records creating and revoking a key with the actor, where they acted from, and the values before and after", async () => {
    const team = await createTeam("pro");
    testSession.client = { ip: "198.51.100.23", userAgent: "Firefox/133.0" };
    try {
      actAs(team.admin.id);
      const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", expiresIn: "7" }));
      if (!created.ok) throw new Error(created.error);
      actAs(team.owner.id);
      expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: created.data.key.id }))).ok).toBe(true);
    } finally {
      testSession.client = { ip: "203.0.113.10", userAgent: "vitest" };
    }
    const page = await listActivity(team.org.id, {});
    expect(page.rows).toMatchObject([
      {
        action: "api_key.revoked",
        actorKind: "user",
        actorName: team.owner.name,
        targetType: "api_key",
        targetName: "Reporting job",
        before: { status: "active" },
        after: { status: "revoked" },
        ip: "198.51.100.23",
        userAgent: "Firefox/133.0",
      },
      {
        action: "api_key.created",
        actorName: team.admin.name,
        targetName: "Reporting job",
        before: null,
        after: { name: "Reporting job", expiresAt: expect.stringMatching(/Z$/) },
      },
    ]);
    // Never a secret: the entry has the hint, as the list shows it, and nothing of the value or hash.
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, page.rows[0]!.targetId));
    expect(JSON.stringify(page.rows)).not.toContain(row!.keyHash);
  });

  it("records plan and rate-limit changes with what they were", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    await changePlanAction(null, form({ orgId: team.org.id, plan: "enterprise" }));
    await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 500 }));
    const page = await listActivity(team.org.id, {});
    expect(page.rows).toMatchObject([
      {
        action: "rate_limit.changed",
        targetType: "organization",
        targetName: team.org.name,
        before: { rateLimitPerMinute: null },
        after: { rateLimitPerMinute: 500 },
      },
      { action: "plan.changed", before: { plan: "pro" }, after: { plan: "enterprise" } },
    ]);
  });

  it("writes nothing for a refused or invalid action", async () => {
    const team = await createTeam("pro");
    actAs(team.member.id);
    await createApiKeyAction(null, form({ orgId: team.org.id, name: "Not allowed" }));
    actAs(team.owner.id);
    await createApiKeyAction(null, form({ orgId: team.org.id, name: "" }));
    await changePlanAction(null, form({ orgId: team.org.id, plan: "pro" }));
    expect(await entriesOf(team.org.id)).toEqual([]);
  });
});

describe("an entry and its change commit together or not at all", () => {
  // Fails the transaction at commit, after both the change and its entry were written: a
  // deferred constraint trigger runs then. Only targets named "Doomed…" (or URLs ending in /Doomed) are hit.
  beforeAll(async () => {
    await getDb().execute(sql`create or replace function doom_activity() returns trigger language plpgsql as $$
      begin
        if new.target_name like 'Doomed%' or new.target_name like '%/Doomed' then raise exception 'the commit of % failed', new.action; end if;
        return null;
      end $$`);
    await getDb().execute(
      sql`create constraint trigger doom_activity after insert on activity_log deferrable initially deferred for each row execute function doom_activity()`,
    );
  });

  it("leaves neither a created key nor its entry", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    await expect(createApiKeyAction(null, form({ orgId: team.org.id, name: "Doomed key" }))).rejects.toThrow(/commit of api_key.created failed/);
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id))).toEqual([]);
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves the key active and no entry when its revocation fails", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Doomed legacy key" });
    actAs(team.owner.id);
    await expect(revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }))).rejects.toThrow(/commit of api_key.revoked failed/);
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.revokedAt).toBeNull();
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("keeps the old name and no entry when a rename fails", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Staging" });
    actAs(team.admin.id);
    await expect(renameApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, name: "Doomed staging" }))).rejects.toThrow(
      /commit of api_key.renamed failed/,
    );
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.name).toBe("Staging");
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("keeps the key's access and no entry when a change of its restrictions fails", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Doomed reporting" });
    actAs(team.admin.id);
    await expect(
      updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "read_only", ipAllowlist: "203.0.113.10" })),
    ).rejects.toThrow(/commit of api_key.restrictions_changed failed/);
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject({ access: "full", ipAllowlist: [] });
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves the plan as it was and no entry when the change fails", async () => {
    const team = await createTeam("pro");
    await getDb().update(organizations).set({ name: "Doomed Org" }).where(eq(organizations.id, team.org.id));
    actAs(team.owner.id);
    await expect(changePlanAction(null, form({ orgId: team.org.id, plan: "enterprise" }))).rejects.toThrow(/commit of plan.changed failed/);
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.plan).toBe("pro");
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves the rate limit as it was and no entry when its change fails", async () => {
    const team = await createTeam("enterprise");
    await getDb().update(organizations).set({ name: "Doomed Org" }).where(eq(organizations.id, team.org.id));
    actAs(team.owner.id);
    await expect(setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 500 }))).rejects.toThrow(/commit of rate_limit.changed failed/);
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.rateLimitPerMinute).toBeNull();
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves neither the user nor the organization when a sign-up's entry fails", async () => {
    const email = `doomed-${Date.now()}@example.test`;
    const signingUp = createUserWithOrganization({
      name: "Dora",
      email,
      passwordHash: "x",
      organizationName: "Doomed Co",
      slugCandidates: [`doomed-${Date.now()}`],
      client: { ip: "127.0.0.1", userAgent: null },
    });
    await expect(signingUp).rejects.toThrow(/commit of organization.created failed/);
    expect(await getDb().select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await getDb().select().from(organizations).where(eq(organizations.name, "Doomed Co"))).toEqual([]);
  });

  it("leaves the key policy as it was and no entry when its change fails", async () => {
    const team = await createTeam("pro");
    await getDb().update(organizations).set({ name: "Doomed Org" }).where(eq(organizations.id, team.org.id));
    actAs(team.owner.id);
    await expect(setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "30" }))).rejects.toThrow(/commit of key_policy.changed failed/);
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect({ max: org!.keyMaxLifetimeDays, required: org!.keyExpiryRequired }).toEqual({ max: null, required: false });
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves the alert settings as they were and no entry when their change fails", async () => {
    const team = await createTeam("pro");
    await getDb().update(organizations).set({ name: "Doomed Org" }).where(eq(organizations.id, team.org.id));
    actAs(team.admin.id);
    await expect(setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "50", rateLimitAlertThreshold: "5" }))).rejects.toThrow(
      /commit of alert_settings.changed failed/,
    );
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect({ thresholds: org!.quotaAlertThresholds, burst: org!.rateLimitAlertThreshold }).toEqual({ thresholds: [80, 90, 100], burst: 10 });
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves no webhook endpoint and no entry when its creation fails", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    try {
      // The entry's target is the endpoint's URL: a Doomed path dooms it.
      await expect(
        createWebhookEndpointAction(null, form({ orgId: team.org.id, url: "http://127.0.0.1:9/Doomed", eventTypes: "key.created" })),
      ).rejects.toThrow(/commit of webhook_endpoint.created failed/);
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
    expect(await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.orgId, team.org.id))).toEqual([]);
    expect(await entriesOf(team.org.id)).toEqual([]);
  });

  it("leaves the old key unchanged, no replacement and no entry when a roll fails", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Doomed sync job" });
    actAs(team.owner.id);
    await expect(rollApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, overlap: "1h" }))).rejects.toThrow(/commit of api_key.rolled failed/);
    const rows = await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id));
    expect(rows.map((row) => ({ id: row.id, expiresAt: row.expiresAt }))).toEqual([{ id: key.id, expiresAt: null }]);
    expect(await entriesOf(team.org.id)).toEqual([]);
  });
});

describe("the system's expiry entries", () => {
  it("records each expired key once, dated at its expiry, however many processes look at once", async () => {
    const team = await createTeam("pro");
    const now = new Date();
    const expiredAt = new Date(Math.floor((now.getTime() - 2 * DAY) / 1000) * 1000);
    const expired = await insertKey(team.org.id, { name: "Contractor", expiresAt: expiredAt });
    await insertKey(team.org.id, { name: "Still valid", expiresAt: new Date(now.getTime() + DAY) });
    await insertKey(team.org.id, { name: "Revoked before it expired", revoked: true, expiresAt: new Date(now.getTime() + 60_000) });
    const written = await Promise.all(Array.from({ length: 4 }, () => recordKeyExpiries(getDb(), now)));
    expect(written.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await recordKeyExpiries(getDb(), now);
    const entries = await entriesOf(team.org.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: "system",
      actorUserId: null,
      action: "api_key.expired",
      targetId: expired.id,
      targetName: "Contractor",
      ip: null,
      createdAt: expiredAt,
    });
    expect(entries[0]!.after).toEqual({ status: "expired", expiresAt: expiredAt.toISOString().replace(".000Z", "Z") });
  });

  it("links a request refused after the expiry to the entry that ended its key", async () => {
    const team = await createTeam("pro");
    const expiredAt = new Date(Date.now() - DAY);
    const key = await insertKey(team.org.id, { name: "Contractor", expiresAt: expiredAt });
    await recordKeyExpiries(getDb());
    await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date(expiredAt.getTime() - 60_000), status: 200 });
    await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date(), status: 401 });
    const view = await readAs(team.member.id, () => loadAuditLog(team.org.slug, {}));
    expect(view).toMatchObject({ kind: "ok", endings: { [key.id]: { action: "api_key.expired", at: expiredAt.toISOString() } } });
  });
});

describe("reading the history", () => {
  let team: Awaited<ReturnType<typeof createTeam>>;
  let keys: { id: string }[];

  beforeAll(async () => {
    team = await createTeam("pro");
    keys = [];
    for (const [name, role] of [
      ["First", "owner"],
      ["Second", "admin"],
      ['=HYPERLINK("http://evil")', "admin"],
    ] as const) {
      actAs(team.byRole[role].id);
      const result = await createApiKeyAction(null, form({ orgId: team.org.id, name }));
      if (!result.ok) throw new Error(result.error);
      keys.push(result.data.key);
    }
    actAs(team.owner.id);
    await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: keys[0]!.id }));
    await changePlanAction(null, form({ orgId: team.org.id, plan: "enterprise" }));
  });

  const actions = async (filters: ActivityFilters) => (await listActivity(team.org.id, filters)).rows.map((row) => `${row.action} ${row.targetName}`);

  it("filters by action, actor, key and date range", async () => {
    expect(await actions({ action: "api_key.created" })).toHaveLength(3);
    expect(await actions({ actor: team.admin.id })).toEqual(['api_key.created =HYPERLINK("http://evil")', "api_key.created Second"]);
    expect(await actions({ key: keys[0]!.id })).toEqual(["api_key.revoked First", "api_key.created First"]);
    expect(await actions({ actor: "system" })).toEqual([]);
    expect(await actions({ range: "custom", to: "2020-01-01" })).toEqual([]);
    expect(await actions({ range: "24h" })).toHaveLength(5);
  });

  it("walks every entry once by keyset, older then back newer", async () => {
    const seen: string[] = [];
    let page = await listActivity(team.org.id, {}, { pageSize: 2 });
    seen.push(...page.rows.map((row) => String(row.id)));
    while (page.older) {
      page = await listActivity(team.org.id, { before: page.older }, { pageSize: 2 });
      seen.push(...page.rows.map((row) => String(row.id)));
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const back = await listActivity(team.org.id, { after: page.newer! }, { pageSize: 2 });
    expect(back.rows.map((row) => String(row.id))).toEqual(seen.slice(2, 4));
  });

  it("refuses a URL with an unknown action or a broken cursor, and reads a good one", async () => {
    const read = (params: Record<string, string>) => readAs(team.member.id, () => loadActivity(team.org.slug, params));
    expect(await read({ action: "api_key.deleted" })).toMatchObject({ kind: "invalid", message: "Choose an action from the list." });
    expect(await read({ before: "yesterday" })).toMatchObject({ kind: "invalid" });
    const page = await listActivity(team.org.id, {}, { pageSize: 1 });
    expect(await read({ action: "api_key.created", before: encodeCursor(page.older!) })).toMatchObject({ kind: "ok", page: { rows: expect.any(Array) } });
  });

  it("exports the filtered entries as CSV, formulas made inert", async () => {
    const response = await readAs(team.admin.id, () => exportActivityCsv(team.org.slug, new URLSearchParams({ action: "api_key.created" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-/);
    const lines = (await response.text()).trim().split("\n");
    expect(lines[0]).toBe("time,entry_id,actor,action,target_type,target_id,target_name,before,after,ip,user_agent");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines.slice(1).every((line) => line.includes(",api_key.created,api_key,"))).toBe(true);
  });

  it("keeps other organizations' entries out of every read", async () => {
    const other = await createTeam("pro");
    expect((await listActivity(other.org.id, {})).rows).toEqual([]);
    const response = await readAs(other.owner.id, () => exportActivityCsv(other.org.slug, new URLSearchParams({ key: keys[0]!.id })));
    expect((await response.text()).trim().split("\n")).toHaveLength(1);
    expect(await readAs(other.owner.id, () => loadActivity(team.org.slug, {}))).toEqual({ kind: "refused", status: 404, message: "Not found." });
    expect(
      await getDb()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.orgId, other.org.id))),
    ).toEqual([]);
  });

  it("offers as actors only the organization's own people, not another's owner who made a change there", async () => {
    const other = await createTeam("pro");
    actAs(other.owner.id);
    expect((await changePlanAction(null, form({ orgId: other.org.id, plan: "enterprise" }))).ok).toBe(true);
    const view = await readAs(team.owner.id, () => loadActivity(team.org.slug, {}));
    if (view.kind !== "ok") throw new Error(`activity refused: ${view.kind}`);
    const offered = view.actors.map((actor) => actor.id).sort();
    expect(offered).toEqual([team.owner.id, team.admin.id, team.member.id, team.guest.id].sort());
    expect(offered).not.toContain(other.owner.id);
  });
});
