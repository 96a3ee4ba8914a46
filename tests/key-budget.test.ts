import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { alerts, apiKeys, keyBudgetUsage, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/core/ids";
import { jobQueue } from "@/db/job-queue";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import { maintainRequestLog } from "@/db/partitions";
import type { KeyBudget } from "@/core/key-budget";
import { createApiKeyAction, rollApiKeyAction, updateKeyRestrictionsAction } from "@/app/[orgSlug]/settings/api/actions";
import { listActivity } from "@/db/queries/activity";
import { getApiKey } from "@/db/queries/api-keys";
import { createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { countedThisMonth } from "./helpers/usage";
import { contractApi, itMatchesTheDocument } from "./helpers/api-contract";

// The gateway's clock, frozen per test so a period boundary is crossed on purpose only.
let frozenAt: number | null = null;
const api = contractApi({ clock: () => frozenAt ?? Date.now() });
const PATH = "/v1/invoices";

afterEach(() => {
  frozenAt = null;
});

async function codeOf(response: Response): Promise<string | null> {
  if (response.status < 400) return null;
  return ((await response.json()) as { error: { code: string } }).error.code;
}

async function budgetUsed(keyId: string): Promise<number[]> {
  const rows = await getDb()
    .select({ used: keyBudgetUsage.used })
    .from(keyBudgetUsage)
    .where(eq(keyBudgetUsage.apiKeyId, keyId))
    .orderBy(keyBudgetUsage.periodStart);
  return rows.map((row) => row.used);
}

async function keyWithBudget(budget: KeyBudget, plan: Parameters<typeof createOrg>[0] = "enterprise", rateLimitPerMinute = 100_000) {
  const org = await createOrg(plan, { rateLimitPerMinute });
  return { org, ...(await insertKey(org.id, { budget })) };
}

const call = (key: string) => api.request(PATH, { key });

describe("a key's budget", () => {
  it("admits its budget, tells what is left with each answer, then refuses with 429 key_budget_exceeded until the UTC day ends", async () => {
    frozenAt = Date.parse("2026-11-26T15:00:00Z");
    const { id, value } = await keyWithBudget({ limit: 3, period: "day" });
    const midnight = Date.parse("2026-11-27T00:00:00Z") / 1000;
    for (const remaining of ["2", "1", "0"]) {
      const response = await call(value);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-key-budget-limit")).toBe("3");
      expect(response.headers.get("x-key-budget-remaining")).toBe(remaining);
      expect(response.headers.get("x-key-budget-reset")).toBe(String(midnight));
    }
    const refused = await call(value);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(9 * 3600));
    expect(refused.headers.get("x-key-budget-remaining")).toBe("0");
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("key_budget_exceeded");
    expect(body.error.message).toContain("3 requests per day");
    expect(body.error.message).toContain("2026-11-27T00:00:00Z");
    // Refusals take no place: the period's count stays at the budget.
    expect(await budgetUsed(id)).toEqual([3]);
  });

  it("sends no budget headers for a key without a budget", async () => {
    const org = await createOrg("enterprise");
    const { value } = await insertKey(org.id);
    const response = await call(value);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-key-budget-limit")).toBeNull();
  });

  it.each([
    ["day", "2026-11-26T23:59:59.999Z", "2026-11-27T00:00:00.000Z"],
    // 2026-11-29 is a Sunday: the week ends at Monday 00:00 UTC.
    ["week", "2026-11-29T23:59:59.999Z", "2026-11-30T00:00:00.000Z"],
    ["month", "2026-11-30T23:59:59.999Z", "2026-12-01T00:00:00.000Z"],
  ] as const)("starts a %s budget again at the UTC boundary, not a millisecond before", async (period, lastMoment, boundary) => {
    const { id, value } = await keyWithBudget({ limit: 2, period });
    frozenAt = Date.parse(lastMoment) - 3 * 86_400_000 * (period === "day" ? 0 : 1);
    expect((await call(value)).status).toBe(200);
    frozenAt = Date.parse(lastMoment);
    expect((await call(value)).status).toBe(200);
    const refused = await call(value);
    expect(await codeOf(refused)).toBe("key_budget_exceeded");
    expect(refused.headers.get("x-key-budget-reset")).toBe(String(Date.parse(boundary) / 1000));
    expect(refused.headers.get("retry-after")).toBe("1");
    frozenAt = Date.parse(boundary);
    const next = await call(value);
    expect(next.status).toBe(200);
    expect(next.headers.get("x-key-budget-remaining")).toBe("1");
    expect(await budgetUsed(id)).toEqual([2, 1]);
  });

  it("admits exactly 50 of 200 concurrent requests on a key with a budget of 50", async () => {
    frozenAt = Date.now();
    const { org, id, value } = await keyWithBudget({ limit: 50, period: "month" });
    const responses = await Promise.all(Array.from({ length: 200 }, () => call(value)));
    const codes = await Promise.all(responses.map(codeOf));
    expect(codes.filter((code) => code === null)).toHaveLength(50);
    expect(new Set(codes.filter((code) => code !== null))).toEqual(new Set(["key_budget_exceeded"]));
    // Every admitted answer names a distinct place: 49 … 0 remaining, each once.
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get("x-key-budget-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await budgetUsed(id)).toEqual([50]);
    expect(org.plan).toBe("enterprise");
  });

  it("is not used by requests its rate limit refused: they are refused first, and the budget is left for later minutes", async () => {
    frozenAt = Date.parse("2026-11-26T10:00:10Z");
    const { id, value } = await keyWithBudget({ limit: 5, period: "day" }, "enterprise", 2);
    const first = await Promise.all(Array.from({ length: 6 }, () => call(value)));
    expect((await Promise.all(first.map(codeOf))).sort()).toEqual([null, null, "rate_limited", "rate_limited", "rate_limited", "rate_limited"].sort());
    expect(await budgetUsed(id)).toEqual([2]);
    // A rate-limited answer still says where the budget stands.
    const limited = await call(value);
    expect(await codeOf(limited)).toBe("rate_limited");
    expect(limited.headers.get("x-key-budget-remaining")).toBe("3");
    frozenAt += 60_000;
    expect((await Promise.all([call(value), call(value)])).map((r) => r.status)).toEqual([200, 200]);
    frozenAt += 60_000;
    const third = await Promise.all([call(value), call(value)]);
    expect((await Promise.all(third.map(codeOf))).sort()).toEqual([null, "key_budget_exceeded"].sort());
    // The rate limit still answers first when both are used up.
    expect(await codeOf(await call(value))).toBe("rate_limited");
    expect(await budgetUsed(id)).toEqual([5]);
  });

  it("answers before the monthly quota, and neither uses what the other refused", async () => {
    frozenAt = Date.now();
    const org = await createOrg("trial");
    const small = await insertKey(org.id, { budget: { limit: 3, period: "day" } });
    const spare = await insertKey(org.id, { budget: { limit: 100, period: "day" } });
    // The budget refuses two of five; the quota counts only the three it admitted.
    const first = await Promise.all(Array.from({ length: 5 }, () => call(small.value)));
    expect((await Promise.all(first.map(codeOf))).filter((code) => code === "key_budget_exceeded")).toHaveLength(2);
    expect(await countedThisMonth(org.id)).toBe(3);
    // The trial's 50 calls used up by the other key.
    const rest = await Promise.all(Array.from({ length: 47 }, () => call(spare.value)));
    expect(rest.every((r) => r.status === 200)).toBe(true);
    expect(await countedThisMonth(org.id)).toBe(50);
    // A key whose budget is used up hears of its budget first; one with budget left hears of the month.
    expect(await codeOf(await call(small.value))).toBe("key_budget_exceeded");
    const monthFull = await call(spare.value);
    expect(await codeOf(monthFull)).toBe("monthly_quota_exceeded");
    // The month's refusal took no place in the budget.
    expect(monthFull.headers.get("x-key-budget-remaining")).toBe("53");
    expect(await budgetUsed(spare.id)).toEqual([47]);
  });

  it("follows a change of the budget within the period: raised, it admits the difference; lowered below what was used, it refuses", async () => {
    frozenAt = Date.now();
    const { org, id, value } = await keyWithBudget({ limit: 2, period: "week" });
    await Promise.all([call(value), call(value), call(value)]);
    await getDb()
      .update(apiKeys)
      .set({ budgetLimit: 4 })
      .where(and(eq(apiKeys.orgId, org.id), eq(apiKeys.id, id)));
    const raised = await Promise.all([call(value), call(value), call(value)]);
    expect((await Promise.all(raised.map(codeOf))).sort()).toEqual([null, null, "key_budget_exceeded"].sort());
    await getDb().update(apiKeys).set({ budgetLimit: 1 }).where(eq(apiKeys.id, id));
    const lowered = await call(value);
    expect(await codeOf(lowered)).toBe("key_budget_exceeded");
    expect(lowered.headers.get("x-key-budget-remaining")).toBe("0");
    expect(await budgetUsed(id)).toEqual([4]);
  });

  it("keeps the periods that began this month or last only (maintenance)", async () => {
    const { org, id, value } = await keyWithBudget({ limit: 10, period: "day" });
    frozenAt = Date.now() - 70 * 86_400_000;
    await call(value);
    frozenAt = null;
    await call(value);
    expect(await budgetUsed(id)).toEqual([1, 1]);
    await maintainRequestLog(getDb());
    expect(await budgetUsed(id)).toEqual([1]);
    expect(org.id).toBeTruthy();
  });

  it("raises its 80 % and 100 % alerts once per period, each sent to the webhooks as key.budget_threshold", async () => {
    frozenAt = Date.parse("2026-11-26T08:00:00Z");
    const { org, id, value } = await keyWithBudget({ limit: 10, period: "day" });
    // As a server does at start: the queue's first start must not wait inside a raise's transaction.
    await jobQueue();
    const endpointId = newId("whe");
    await getDb()
      .insert(webhookEndpoints)
      .values({
        id: endpointId,
        orgId: org.id,
        url: "https://hooks.example.test/in",
        eventTypes: ["key.budget_threshold"],
        mode: "live",
        signingSecret: webhookCredentials.seal(newSigningSecret()),
      });
    const kinds = async () =>
      (await getDb().select().from(alerts).where(eq(alerts.orgId, org.id)).orderBy(alerts.id)).map(
        (alert) => `${alert.kind} ${alert.details.threshold} ${alert.details.periodStart}`,
      );
    for (let i = 0; i < 7; i++) await call(value);
    expect(await kinds()).toEqual([]);
    // The 8th request is 80 %; concurrent requests past 100 % raise the second once.
    await call(value);
    await Promise.all(Array.from({ length: 6 }, () => call(value)));
    await call(value);
    const today = "2026-11-26T00:00:00.000Z";
    expect(await kinds()).toEqual([`budget_threshold 80 ${today}`, `budget_threshold 100 ${today}`]);
    const [alert] = await getDb().select().from(alerts).where(eq(alerts.orgId, org.id)).orderBy(alerts.id);
    expect(alert).toMatchObject({ apiKeyId: id, details: { threshold: 80, limit: 10, used: 8, period: "day", resetsAt: "2026-11-27T00:00:00.000Z" } });
    const deliveries = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.createdAt);
    expect(deliveries.map((delivery) => [delivery.eventType, delivery.payload.data.threshold, delivery.payload.data.key_id])).toEqual([
      ["key.budget_threshold", 80, id],
      ["key.budget_threshold", 100, id],
    ]);
    // The next day is a period of its own.
    frozenAt = Date.parse("2026-11-27T00:00:00Z");
    for (let i = 0; i < 8; i++) await call(value);
    expect(await kinds()).toHaveLength(3);
  });

  itMatchesTheDocument(api, 20);
});

describe("setting a key's budget in the dashboard", () => {
  async function entries(orgId: string) {
    const page = await listActivity(orgId, {});
    return page.rows.map((row) => ({ action: row.action, before: row.before, after: row.after }));
  }

  it('an admin gives a new key a budget ("1,000" per week); the history says so and the gateway applies it', async () => {
    const team = await createTeam("enterprise");
    actAs(team.admin.id);
    const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", budgetLimit: "1,000", budgetPeriod: "week" }));
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.data.key.budget).toMatchObject({ limit: 1000, period: "week", used: 0 });
    expect((await entries(team.org.id))[0]).toMatchObject({ action: "api_key.created", after: expect.objectContaining({ budget: "1,000 requests per week" }) });
    const response = await call(created.data.value);
    expect(response.headers.get("x-key-budget-remaining")).toBe("999");
    expect((await getApiKey(team.org.id, created.data.key.id))!.budget).toMatchObject({ used: 1, limit: 1000 });
  });

  it.each([
    ["letters", { budgetLimit: "lots" }, "budgetLimit"],
    ["zero", { budgetLimit: "0" }, "budgetLimit"],
    ["a fraction", { budgetLimit: "2.5" }, "budgetLimit"],
    ["a negative number", { budgetLimit: "-3" }, "budgetLimit"],
    ["over the maximum", { budgetLimit: "1000000001" }, "budgetLimit"],
    ["a number past JavaScript's precision", { budgetLimit: "99999999999999999999" }, "budgetLimit"],
    ["an unknown period", { budgetLimit: "10", budgetPeriod: "year" }, "budgetPeriod"],
  ])("refuses %s with a field error and creates nothing", async (_label, fields, field) => {
    const team = await createTeam("enterprise");
    actAs(team.admin.id);
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", ...fields }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { [field]: [expect.any(String)] } });
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id))).toEqual([]);
  });

  it("Edit access sets, changes and removes a budget, each change an entry of its own; the same values again are refused", async () => {
    const team = await createTeam("enterprise");
    const key = await insertKey(team.org.id, { name: "Zapier" });
    actAs(team.owner.id);
    const set = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "full", budgetLimit: "3", budgetPeriod: "day" }));
    expect(set).toMatchObject({ ok: true, data: { key: { budget: { limit: 3, period: "day", used: 0 } } } });
    const both = await updateKeyRestrictionsAction(
      null,
      form({ orgId: team.org.id, keyId: key.id, access: "read_only", budgetLimit: "5", budgetPeriod: "month" }),
    );
    expect(both.ok).toBe(true);
    const same = await updateKeyRestrictionsAction(
      null,
      form({ orgId: team.org.id, keyId: key.id, access: "read_only", budgetLimit: "5", budgetPeriod: "month" }),
    );
    expect(same).toMatchObject({ ok: false, error: '"Zapier" already has this access and budget.' });
    const removed = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "read_only", budgetLimit: "" }));
    expect(removed).toMatchObject({ ok: true, data: { key: { budget: null } } });
    expect((await entries(team.org.id)).reverse()).toEqual([
      { action: "api_key.budget_changed", before: { budget: null }, after: { budget: "3 requests per day" } },
      expect.objectContaining({ action: "api_key.restrictions_changed" }),
      { action: "api_key.budget_changed", before: { budget: "3 requests per day" }, after: { budget: "5 requests per month" } },
      { action: "api_key.budget_changed", before: { budget: "5 requests per month" }, after: { budget: null } },
    ]);
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject({ access: "read_only", budgetLimit: null, budgetPeriod: null });
  });

  it("a roll's replacement keeps the budget and takes over the period's count", async () => {
    const team = await createTeam("enterprise");
    const key = await insertKey(team.org.id, { name: "Zapier", budget: { limit: 3, period: "day" } });
    await call(key.value);
    await call(key.value);
    actAs(team.owner.id);
    const rolled = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, overlap: "now" }));
    expect(rolled.ok).toBe(true);
    if (!rolled.ok) return;
    expect(rolled.data.key.budget).toMatchObject({ limit: 3, period: "day", used: 2 });
    expect((await call(rolled.data.value)).status).toBe(200);
    expect(await codeOf(await call(rolled.data.value))).toBe("key_budget_exceeded");
  });
});
