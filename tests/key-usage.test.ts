import { and, count, eq, gte, lt } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { getApiKey, windowStartDay } from "@/db/queries/api-keys";
import { getKeyUsage, listRecentCalls } from "@/db/queries/key-usage";
import { requestLog } from "@/db/schema";
import { utcDay } from "@/core/time";
import { createOrg, createTeam, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const windowStart = new Date(`${windowStartDay(now)}T00:00:00.000Z`);
const today = new Date(`${utcDay(now)}T00:00:00.000Z`);
const dayOf = (index: number, hour = 12) => new Date(windowStart.getTime() + index * DAY + hour * 3600_000);

describe("a key's 30-day stats", () => {
  let orgId: string;
  let keyId: string;
  let otherKeyId: string;
  let foreignOrgId: string;
  let foreignKeyId: string;

  beforeAll(async () => {
    const team = await createTeam("pro");
    orgId = team.org.id;
    keyId = (await insertKey(orgId, { name: "Production billing server" })).id;
    otherKeyId = (await insertKey(orgId, { name: "Staging" })).id;
    const foreign = await createOrg("pro");
    foreignOrgId = foreign.id;
    foreignKeyId = (await insertKey(foreignOrgId)).id;

    const ours = { orgId, apiKeyId: keyId };
    // The window's first instant and its last day, both in.
    await logRequest({ ...ours, at: windowStart, endpoint: "GET /v1/invoices", status: 200 });
    await logRequest({ ...ours, at: dayOf(0, 23), endpoint: "GET /v1/invoices", status: 200 });
    await logRequest({ ...ours, at: dayOf(5), endpoint: "GET /v1/invoices/{id}", status: 404 });
    await logRequest({ ...ours, at: dayOf(5), endpoint: "POST /v1/pdf/generate", status: 500 });
    for (let i = 0; i < 3; i++) await logRequest({ ...ours, at: new Date(today.getTime() + i * 1000), endpoint: "POST /v1/invoices", status: 201 });
    await logRequest({ ...ours, at: new Date(today.getTime() + 5000), endpoint: "GET /v1/invoices", status: 304 });
    await logRequest({ ...ours, at: new Date(today.getTime() + 6000), endpoint: "GET /v1/invoices", status: 429 });
    // Just outside: the last millisecond before the window, and the first of tomorrow.
    await logRequest({ ...ours, at: new Date(windowStart.getTime() - 1), endpoint: "GET /v1/customers", status: 200 });
    await logRequest({ ...ours, at: new Date(today.getTime() + DAY), endpoint: "GET /v1/customers", status: 200 });
    // The same organization's other key, and another organization's key.
    await logRequest({ orgId, apiKeyId: otherKeyId, at: dayOf(10), endpoint: "GET /v1/products", status: 200 });
    await logRequest({ orgId: foreignOrgId, apiKeyId: foreignKeyId, at: dayOf(5), endpoint: "GET /v1/invoices", status: 500 });
  });

  it("totals the key's requests in the window and nothing else", async () => {
    const usage = await getKeyUsage(orgId, keyId, now);
    expect(usage.from).toBe(utcDay(windowStart));
    expect(usage.to).toBe(utcDay(now));
    expect(usage.total).toBe(9);
    expect(usage.byClass).toEqual({ "2xx": 5, "3xx": 1, "4xx": 2, "5xx": 1 });
  });

  it("agrees with the request log itself", async () => {
    const [logged] = await getDb()
      .select({ n: count() })
      .from(requestLog)
      .where(
        and(
          eq(requestLog.orgId, orgId),
          eq(requestLog.apiKeyId, keyId),
          gte(requestLog.createdAt, windowStart),
          lt(requestLog.createdAt, new Date(today.getTime() + DAY)),
        ),
      );
    expect((await getKeyUsage(orgId, keyId, now)).total).toBe(logged!.n);
  });

  it("has all 30 days, oldest first, days without requests at zero, split by status class", async () => {
    const { daily } = await getKeyUsage(orgId, keyId, now);
    expect(daily).toHaveLength(30);
    expect(daily.map((d) => d.day)).toEqual(Array.from({ length: 30 }, (_, i) => utcDay(dayOf(i))));
    expect(daily[0]).toEqual({ day: utcDay(windowStart), total: 2, "2xx": 2, "3xx": 0, "4xx": 0, "5xx": 0 });
    expect(daily[5]).toEqual({ day: utcDay(dayOf(5)), total: 2, "2xx": 0, "3xx": 0, "4xx": 1, "5xx": 1 });
    expect(daily[29]).toEqual({ day: utcDay(now), total: 5, "2xx": 3, "3xx": 1, "4xx": 1, "5xx": 0 });
    const quiet = daily.filter((_, i) => ![0, 5, 29].includes(i));
    expect(quiet.every((d) => d.total === 0 && d["2xx"] + d["3xx"] + d["4xx"] + d["5xx"] === 0)).toBe(true);
  });

  it("lists status codes in ascending order of code, with their counts and shares", async () => {
    const { statuses } = await getKeyUsage(orgId, keyId, now);
    expect(statuses).toEqual([
      { status: 200, count: 2, share: 2 / 9 },
      { status: 201, count: 3, share: 3 / 9 },
      { status: 304, count: 1, share: 1 / 9 },
      { status: 404, count: 1, share: 1 / 9 },
      { status: 429, count: 1, share: 1 / 9 },
      { status: 500, count: 1, share: 1 / 9 },
    ]);
  });

  it("ranks the most accessed endpoints by route template and method", async () => {
    const { endpoints } = await getKeyUsage(orgId, keyId, now);
    expect(endpoints.slice(0, 2)).toEqual([
      { endpoint: "GET /v1/invoices", method: "GET", route: "/v1/invoices", count: 4, share: 4 / 9 },
      { endpoint: "POST /v1/invoices", method: "POST", route: "/v1/invoices", count: 3, share: 3 / 9 },
    ]);
    expect(endpoints.map((e) => e.endpoint)).not.toContain("GET /v1/customers");
    expect(endpoints.map((e) => e.endpoint)).not.toContain("GET /v1/products");
    expect(endpoints.reduce((sum, e) => sum + e.count, 0)).toBe(9);
  });

  it("is empty, with 30 zero days, for a key without requests", async () => {
    const { id } = await insertKey(orgId, { name: "Unused" });
    const usage = await getKeyUsage(orgId, id, now);
    expect(usage.total).toBe(0);
    expect(usage.daily).toHaveLength(30);
    expect(usage.statuses).toEqual([]);
    expect(usage.endpoints).toEqual([]);
  });

  it("shows nothing of another organization's key when its id is put in the URL", async () => {
    expect(await getApiKey(orgId, foreignKeyId)).toBeNull();
    expect((await getKeyUsage(orgId, foreignKeyId, now)).total).toBe(0);
    expect(await listRecentCalls(orgId, foreignKeyId)).toEqual([]);
    expect((await getKeyUsage(foreignOrgId, keyId, now)).total).toBe(0);
    expect(await listRecentCalls(foreignOrgId, keyId)).toEqual([]);
  });
});

describe("a key's last calls", () => {
  it("stays within the 30-day window, like every other figure of the page", async () => {
    const org = await createOrg("pro");
    const { id: keyId } = await insertKey(org.id);
    const windowStart = new Date(`${windowStartDay(now)}T00:00:00Z`);
    await logRequest({ orgId: org.id, apiKeyId: keyId, at: new Date(windowStart.getTime() - 1) });
    const inside = await logRequest({ orgId: org.id, apiKeyId: keyId, at: windowStart });
    expect((await listRecentCalls(org.id, keyId, { now })).map((c) => c.createdAt)).toEqual([inside.at.toISOString()]);
  });

  it("lists the 50 newest calls of the key from the request log, newest first", async () => {
    const org = await createOrg("pro");
    const { id: keyId } = await insertKey(org.id);
    const { id: otherKeyId } = await insertKey(org.id);
    const start = now.getTime() - 2 * 3600_000;
    const written = [];
    for (let i = 0; i < 55; i++) {
      written.push(
        await logRequest({
          orgId: org.id,
          apiKeyId: keyId,
          at: new Date(start + i * 60_000),
          path: `/v1/invoices/in_${i}`,
          durationMs: i,
          status: i % 7 === 0 ? 404 : 200,
        }),
      );
    }
    await logRequest({ orgId: org.id, apiKeyId: otherKeyId, at: new Date(start + 3600_000) });

    const calls = await listRecentCalls(org.id, keyId, { now });
    expect(calls).toHaveLength(50);
    const expected = written.slice(5).reverse();
    expect(calls.map((c) => ({ createdAt: c.createdAt, method: c.method, path: c.path, status: c.status, durationMs: c.durationMs }))).toEqual(
      expected.map((w) => ({ createdAt: w.at.toISOString(), method: w.method, path: w.path, status: w.status, durationMs: w.durationMs })),
    );
  });
});
