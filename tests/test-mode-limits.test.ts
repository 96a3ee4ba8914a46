import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { alerts } from "@/db/schema";
import { createOrg, insertKey } from "./helpers/factories";
import { countedThisMonth } from "./helpers/usage";
import { contractApi, errorOf, itMatchesTheDocument } from "./helpers/api-contract";

// A test key's limits (docs/features/test-mode.md#limits): its own rate limit and budget hold
// exactly, and the organization's monthly quota never sees it.

let frozenAt: number | null = null;
const api = contractApi({ clock: () => frozenAt ?? Date.now() });
const PATH = "/v1/invoices";

// One fixed moment per test: a burst that straddled a minute boundary would meet two windows.
beforeEach(() => {
  frozenAt = Date.now();
});
afterEach(() => {
  frozenAt = null;
});

const burst = (key: string, n: number) => Promise.all(Array.from({ length: n }, () => api.request(PATH, { key })));

async function codes(responses: Response[]): Promise<(string | null)[]> {
  return Promise.all(responses.map(async (response) => (response.status < 400 ? null : (await errorOf(response)).code)));
}

describe("a test key", () => {
  it("is never counted toward the month: a trial's test key makes more calls than its quota, raising no alert, beside a live key that still has its 50", async () => {
    const org = await createOrg("trial");
    const test = await insertKey(org.id, { mode: "test" });
    const live = await insertKey(org.id);
    // The trial's minute allows 60 per key: 55 is more than the month's 50, within the minute.
    const tested = await burst(test.value, 55);
    expect(tested.every((response) => response.status === 200)).toBe(true);
    expect(tested.every((response) => response.headers.get("x-quota-limit") === null)).toBe(true);
    expect(await countedThisMonth(org.id)).toBe(0);
    expect(await getDb().select().from(alerts).where(eq(alerts.orgId, org.id))).toEqual([]);

    const lived = await codes(await burst(live.value, 51));
    expect(lived.filter((code) => code === null)).toHaveLength(50);
    expect(lived.filter((code) => code !== null)).toEqual(["monthly_quota_exceeded"]);
    expect(await countedThisMonth(org.id)).toBe(50);
    // The month is full for live calls; test calls go on.
    expect((await api.request(PATH, { key: test.value })).status).toBe(200);
  });

  it("admits exactly its rate limit of 200 concurrent requests", async () => {
    const org = await createOrg("enterprise");
    const { value } = await insertKey(org.id, { mode: "test" });
    const answered = await codes(await burst(value, 200));
    expect(answered.filter((code) => code === null)).toHaveLength(60);
    expect(new Set(answered.filter((code) => code !== null))).toEqual(new Set(["rate_limited"]));
  });

  it("admits exactly its budget of 50 of 200 concurrent requests", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const { value } = await insertKey(org.id, { mode: "test", budget: { limit: 50, period: "month" } });
    const answered = await codes(await burst(value, 200));
    expect(answered.filter((code) => code === null)).toHaveLength(50);
    expect(new Set(answered.filter((code) => code !== null))).toEqual(new Set(["key_budget_exceeded"]));
  });

  it("is refused on Solo, like a live key", async () => {
    const org = await createOrg("solo");
    const { value } = await insertKey(org.id, { mode: "test" });
    const response = await api.request(PATH, { key: value });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe("plan_no_api_access");
  });
});

itMatchesTheDocument(api, 400);
