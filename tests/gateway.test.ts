import { count, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { getDb } from "@/db";
import { log } from "@/core/log";
import { apiKeys, rateLimitWindows, requestLog } from "@/db/schema";
import { generateApiKey, hashApiKey } from "@/lib/keys/format";
import { callsThisMonth } from "@/db/queries/monthly-usage";
import { changePlanAction } from "@/app/[orgSlug]/settings/plan/actions";
import { rollApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { addMember, createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { countedThisMonth } from "./helpers/usage";
import { contractApi, itMatchesTheDocument } from "./helpers/api-contract";

// The gateway's clock, so a test can step to the moment X-RateLimit-Reset names.
let frozenAt: number | null = null;
const api = contractApi({ clock: () => frozenAt ?? Date.now() });
const PATH = "/v1/invoices";

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
  return body.error;
}

/** The key with one base62 character changed at `index` (negative: from the end). */
function withTypo(key: string, index: number): string {
  const at = index < 0 ? key.length + index : index;
  return key.slice(0, at) + (key[at] === "a" ? "b" : "a") + key.slice(at + 1);
}

/** What the server logged at error level while a check ran: each line's fields (with `err`) and message. */
type LoggedErrors = MockInstance<(fields: { err?: Error; requestId?: string }, message: string) => void>;

/** Runs `check` while `table` is renamed away (a real fault) and the log's errors are captured. */
async function withTableGone(table: string, check: (errors: LoggedErrors) => Promise<void>): Promise<void> {
  await getDb().execute(sql.raw(`alter table ${table} rename to ${table}_away`));
  const errors = vi.spyOn(log, "error").mockImplementation(() => {}) as unknown as LoggedErrors;
  try {
    await check(errors);
  } finally {
    errors.mockRestore();
    await getDb().execute(sql.raw(`alter table ${table}_away rename to ${table}`));
  }
}

async function logRows(orgId: string) {
  return getDb().select().from(requestLog).where(eq(requestLog.orgId, orgId));
}

describe("authentication", () => {
  it.each([
    ["missing", undefined, "api_key_missing"],
    ["empty", "", "api_key_missing"],
    ["malformed", "not-a-key", "api_key_invalid"],
    ["another prefix", `sk_${generateApiKey().slice(3)}`, "api_key_invalid"],
    ["too short", generateApiKey().slice(0, -1), "api_key_invalid"],
    ["wrong checksum", withTypo(generateApiKey(), -1), "api_key_invalid"],
    ["unknown", generateApiKey(), "api_key_invalid"],
  ])("answers a %s key with 401 and the error body", async (_label, key, code) => {
    const response = await api.request(PATH, { key });
    expect(response.status).toBe(401);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_/);
    const error = await errorOf(response);
    expect(error).toEqual({ code, message: expect.any(String), request_id: requestId });
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("checks the checksum before the database: a typo is invalid even when its hash is stored", async () => {
    const org = await createOrg("pro");
    const { id, value } = await insertKey(org.id);
    const typo = withTypo(value, 10);
    // Were the typo looked up, it would now match this key and be let through.
    await getDb()
      .update(apiKeys)
      .set({ keyHash: hashApiKey(typo) })
      .where(eq(apiKeys.id, id));
    const response = await api.request(PATH, { key: typo });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe("api_key_invalid");
    expect(await logRows(org.id)).toHaveLength(0);
  });

  it("refuses a revoked key with api_key_revoked and logs the attempt", async () => {
    const org = await createOrg("pro");
    const { id, value } = await insertKey(org.id, { revoked: true });
    const response = await api.request(PATH, { key: value });
    expect(response.status).toBe(401);
    const error = await errorOf(response);
    expect(error.code).toBe("api_key_revoked");
    const rows = await logRows(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ apiKeyId: id, status: 401, requestId: error.request_id, method: "GET" });
    const [key] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(key!.lastUsedAt).toBeNull();
  });

  it("refuses a solo organization's key with 403 plan_no_api_access", async () => {
    const org = await createOrg("solo");
    const { id, value } = await insertKey(org.id);
    const response = await api.request(PATH, { key: value });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe("plan_no_api_access");
    expect(await logRows(org.id)).toHaveLength(1);
    // Refused calls take no place in the key's minute: an upgrade within it starts from a full limit.
    expect(await getDb().select().from(rateLimitWindows).where(eq(rateLimitWindows.apiKeyId, id))).toEqual([]);
    expect(await countedThisMonth(org.id)).toBe(0);
  });
});

describe("a key with an expiry", () => {
  afterEach(() => {
    frozenAt = null;
  });

  it("says when it expires on every authenticated response, and a key without one says nothing", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id, { expiresAt: new Date("2099-03-31T00:00:00.000Z") });
    const response = await api.request(PATH, { key: value });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-api-key-expires")).toBe("2099-03-31T00:00:00Z");
    const { value: lasting } = await insertKey(org.id);
    expect((await api.request(PATH, { key: lasting })).headers.has("x-api-key-expires")).toBe(false);
  });

  it("works until its expiry and is refused from that moment with api_key_expired, logged, counting nothing", async () => {
    const org = await createOrg("pro");
    const expiresAt = new Date(Date.now() + 3_600_000);
    const { id, value } = await insertKey(org.id, { expiresAt });
    frozenAt = expiresAt.getTime() - 1;
    expect((await api.request(PATH, { key: value })).status).toBe(200);
    const [used] = await getDb().select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    const counted = await countedThisMonth(org.id);

    frozenAt = expiresAt.getTime();
    const refused = await api.request(PATH, { key: value });
    expect(refused.status).toBe(401);
    const error = await errorOf(refused);
    expect(error.code).toBe("api_key_expired");
    expect(error.message).toContain(expiresAt.toISOString().slice(0, 19));
    expect(refused.headers.has("x-ratelimit-remaining")).toBe(false);
    expect(await countedThisMonth(org.id)).toBe(counted);
    // Later than the minute last-used waits between writes: a refused call is still no use.
    frozenAt = expiresAt.getTime() + 120_000;
    expect((await errorOf(await api.request(PATH, { key: value }))).code).toBe("api_key_expired");
    expect(await countedThisMonth(org.id)).toBe(counted);
    const rows = await logRows(org.id);
    expect(rows.map((row) => row.status).sort()).toEqual([200, 401, 401]);
    expect(rows.find((row) => row.requestId === error.request_id)).toMatchObject({ apiKeyId: id, status: 401 });
    const [after] = await getDb().select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(after!.at).toEqual(used!.at);
  });

  it("keeps a rolled key working until its overlap ends, beside its replacement, and refuses it from then on", async () => {
    const team = await createTeam("pro");
    const old = await insertKey(team.org.id, { name: "Production billing server" });
    actAs(team.owner.id);
    const rolled = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: old.id, overlap: "1h" }));
    if (!rolled.ok) throw new Error(rolled.error);
    const endsAt = Date.parse(rolled.data.oldKey.endsAt);
    expect(endsAt - Date.now()).toBeGreaterThan(3_590_000);
    expect(endsAt - Date.now()).toBeLessThanOrEqual(3_600_000);

    frozenAt = endsAt - 1000;
    const during = await api.request(PATH, { key: old.value });
    expect(during.status).toBe(200);
    expect(during.headers.get("x-api-key-expires")).toBe(rolled.data.oldKey.endsAt.replace(".000Z", "Z"));
    expect((await api.request(PATH, { key: rolled.data.value })).status).toBe(200);

    frozenAt = endsAt;
    const after = await api.request(PATH, { key: old.value });
    expect(after.status).toBe(401);
    expect((await errorOf(after)).code).toBe("api_key_expired");
    const replacement = await api.request(PATH, { key: rolled.data.value });
    expect(replacement.status).toBe(200);
    expect(replacement.headers.has("x-api-key-expires")).toBe(false);
  });

  it("refuses a key rolled with no overlap at once", async () => {
    const team = await createTeam("pro");
    const old = await insertKey(team.org.id);
    actAs(team.owner.id);
    const rolled = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: old.id, overlap: "now" }));
    if (!rolled.ok) throw new Error(rolled.error);
    expect((await errorOf(await api.request(PATH, { key: old.value }))).code).toBe("api_key_expired");
    expect((await api.request(PATH, { key: rolled.data.value })).status).toBe(200);
  });

  it("calls a key that is both revoked and expired revoked: a person ended it", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id, { revoked: true, expiresAt: new Date(Date.now() - 1000) });
    expect((await errorOf(await api.request(PATH, { key: value }))).code).toBe("api_key_revoked");
  });
});

describe("an accepted request", () => {
  it("carries the request id, rate-limit and quota headers, and has its audit row", async () => {
    const org = await createOrg("pro");
    const { id, value } = await insertKey(org.id);
    const response = await api.request(`${PATH}?limit=5`, { key: value, headers: { "User-Agent": "gateway-test/1.0" } });
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(429);
    const requestId = response.headers.get("x-request-id")!;
    expect(response.headers.get("x-ratelimit-limit")).toBe("60");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("59");
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 60);
    expect(response.headers.get("x-quota-limit")).toBe("10000");
    expect(response.headers.get("x-quota-remaining")).toBe("9999");
    const [row] = await logRows(org.id);
    expect(row).toMatchObject({
      apiKeyId: id,
      requestId,
      method: "GET",
      path: `${PATH}?limit=5`,
      status: response.status,
      userAgent: "gateway-test/1.0",
      ip: "127.0.0.1",
    });
    expect(row!.durationMs).toBeGreaterThanOrEqual(0);
    const [key] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(key!.lastUsedAt).toBeInstanceOf(Date);
    // The last use names its client and route, for the revoke and roll dialogs.
    expect(key).toMatchObject({ lastUsedIp: "127.0.0.1", lastUsedEndpoint: `GET ${PATH}` });
  });

  it("reports its own time by phase in Server-Timing, on an answer and on a refusal", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    const phasesOf = (response: Response) =>
      Object.fromEntries(
        response.headers
          .get("server-timing")!
          .split(", ")
          .map((entry) => {
            const [name, duration] = entry.split(";dur=");
            return [name!, Number(duration)];
          }),
      );
    const answered = phasesOf(await api.request(`${PATH}?limit=1`, { key: value }));
    expect(Object.keys(answered)).toEqual(["admission", "handler", "log", "total"]);
    for (const duration of Object.values(answered)) expect(duration).toBeGreaterThan(0);
    expect(answered.total).toBeGreaterThanOrEqual(answered.admission! + answered.handler! + answered.log!);
    await getDb().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.orgId, org.id));
    // A refusal runs no handler; an unknown key is refused before any phase, and says nothing.
    expect(Object.keys(phasesOf(await api.request(PATH, { key: value })))).toEqual(["admission", "log", "total"]);
    expect((await api.request(PATH, { key: generateApiKey() })).headers.get("server-timing")).toBeNull();
  });

  it("omits the quota headers when the plan is unlimited and uses the enterprise limit", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 250 });
    const { value } = await insertKey(org.id);
    const response = await api.request(PATH, { key: value });
    expect(response.headers.get("x-ratelimit-limit")).toBe("250");
    expect(response.headers.get("x-quota-limit")).toBeNull();
    expect(response.headers.get("x-quota-remaining")).toBeNull();
  });

  it("uses 60 per minute for an enterprise organization without a custom limit", async () => {
    const org = await createOrg("enterprise");
    const { value } = await insertKey(org.id);
    expect((await api.request(PATH, { key: value })).headers.get("x-ratelimit-limit")).toBe("60");
  });

  /** The body of a 500 internal_error carrying the response's request id, its message silent about `hidden`. */
  async function internalErrorOf(response: Response, hidden: string) {
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error).toEqual({ code: "internal_error", message: expect.not.stringContaining(hidden), request_id: response.headers.get("x-request-id") });
    return error;
  }

  it("answers a failure of its own checks with 500 internal_error, and still logs the request", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    // A real fault: the rate-limit table is gone for the length of one request.
    await withTableGone("rate_limit_windows", async (errors) => {
      const error = await internalErrorOf(await api.request(PATH, { key: value }), "rate_limit");
      expect(await logRows(org.id)).toMatchObject([{ status: 500, requestId: error.request_id }]);
      expect(errors).toHaveBeenCalledWith(
        expect.objectContaining({
          requestId: error.request_id,
          err: expect.objectContaining({
            message: expect.stringContaining("Admitting a batch"),
            cause: expect.objectContaining({ message: expect.stringContaining("rate_limit_windows") }),
          }),
        }),
        "Gateway failure",
      );
    });
  });

  it("answers 500 with the request id when its audit row cannot be written, and says why in the server log", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    // A real fault: the rollup table is gone, so the batch holding this request's row fails whole.
    await withTableGone("request_daily_rollup", async (errors) => {
      const error = await internalErrorOf(await api.request(PATH, { key: value }), "rollup");
      const [fields, message] = errors.mock.calls.find(([logged]) => logged.requestId === error.request_id)!;
      expect(message).toBe("Gateway failure");
      expect(fields.err).toMatchObject({
        message: expect.stringContaining("request-log rows failed"),
        cause: expect.objectContaining({ message: expect.stringContaining("request_daily_rollup") }),
      });
      expect(await logRows(org.id)).toHaveLength(0);
    });
  });

  it("logs paths and user agents exactly, whatever characters they hold", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    const userAgent = 'probe "quoted" \\back\\slash, {braces} NULL';
    await api.request(`${PATH}?note=%22a%5Cb%2C%7Bc%7D%22&x=NULL`, { key: value, headers: { "User-Agent": userAgent } });
    const [row] = await logRows(org.id);
    expect(row).toMatchObject({ path: `${PATH}?note=%22a%5Cb%2C%7Bc%7D%22&x=NULL`, userAgent });
  });

  it("logs an unknown route under its organization with a 404", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    const response = await api.request("/v1/nothing-here", { key: value });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("route_not_found");
    const [row] = await logRows(org.id);
    expect(row).toMatchObject({ status: 404, endpoint: "GET (unmatched)" });
  });
});

describe("rate limit and quota under concurrency", () => {
  // One fixed moment per test: a burst that straddled a minute boundary would meet two windows.
  beforeEach(() => {
    frozenAt = Date.now();
  });
  afterEach(() => {
    frozenAt = null;
  });

  it("accepts exactly 60 of 200 concurrent requests on one key, then again after the reset", async () => {
    const org = await createOrg("enterprise");
    const { value } = await insertKey(org.id);
    const responses = await Promise.all(Array.from({ length: 200 }, () => api.request(PATH, { key: value })));
    const limited = responses.filter((r) => r.status === 429);
    expect(responses.length - limited.length).toBe(60);
    const sample = limited[0]!;
    expect((await errorOf(sample)).code).toBe("rate_limited");
    const retryAfter = Number(sample.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sample.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await logRows(org.id)).toHaveLength(200);
    // Refused requests do not count against the month; an unlimited plan writes no counter for it.
    expect(await callsThisMonth(getDb(), org.id)).toBe(60);
    expect(await countedThisMonth(org.id)).toBe(0);

    const reset = Number(sample.headers.get("x-ratelimit-reset"));
    frozenAt = reset * 1000 - 1;
    expect((await api.request(PATH, { key: value })).status).toBe(429);
    frozenAt = reset * 1000;
    const again = await api.request(PATH, { key: value });
    expect(again.status).not.toBe(429);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  it("tells a rate-limited client its monthly quota without counting the refused calls", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    const accepted = await Promise.all(Array.from({ length: 60 }, () => api.request(PATH, { key: value })));
    expect(accepted.every((r) => r.status === 200)).toBe(true);
    const limited = await Promise.all(Array.from({ length: 5 }, () => api.request(PATH, { key: value })));
    expect(limited.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    for (const response of limited) {
      expect(response.headers.get("x-quota-limit")).toBe("10000");
      expect(response.headers.get("x-quota-remaining")).toBe(String(10_000 - 60));
    }
  });

  it("accepts exactly 50 of 100 concurrent calls across a trial organization's two keys", async () => {
    const org = await createOrg("trial");
    const keys = [await insertKey(org.id), await insertKey(org.id)];
    const sentAt = Date.now();
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => api.request(PATH, { key: keys[i % 2]!.value })));
    const answeredAt = Date.now();
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.length - refused.length).toBe(50);
    const codes = new Set(await Promise.all(refused.map(async (r) => (await errorOf(r)).code)));
    expect(codes).toEqual(new Set(["monthly_quota_exceeded"]));
    // Retry-After counts from the moment of the refusal, somewhere between sending and the last answer
    // (a loaded machine can take seconds for 100 calls), rounded up to whole seconds.
    const retryAfter = Number(refused[0]!.headers.get("retry-after"));
    const nextMonth = Date.UTC(new Date(sentAt).getUTCFullYear(), new Date(sentAt).getUTCMonth() + 1, 1);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((nextMonth - answeredAt) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((nextMonth - sentAt) / 1000) + 1);
    expect(refused[0]!.headers.get("x-quota-remaining")).toBe("0");
    expect(await logRows(org.id)).toHaveLength(100);
    expect(await countedThisMonth(org.id)).toBe(50);
  });

  it("carries the month's calls into a new plan's quota, exactly", async () => {
    const org = await createOrg("enterprise");
    const owner = await addMember(org.id, "owner");
    const keys = [await insertKey(org.id), await insertKey(org.id)];
    // 30 calls on Enterprise, which counts them in its log only; 2 refused ones that do not count.
    await Promise.all(Array.from({ length: 30 }, (_, i) => api.request(PATH, { key: keys[i % 2]!.value })));
    const revoked = await insertKey(org.id, { revoked: true });
    await Promise.all([api.request(PATH, { key: revoked.value }), api.request(PATH, { key: revoked.value })]);
    actAs(owner.id);
    expect((await changePlanAction(null, form({ orgId: org.id, plan: "trial" }))).ok).toBe(true);
    expect(await callsThisMonth(getDb(), org.id)).toBe(30);

    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => api.request(PATH, { key: keys[i % 2]!.value })));
    expect(responses.filter((r) => r.status !== 429)).toHaveLength(20);
    expect(await countedThisMonth(org.id)).toBe(50);
  });

  it("keeps calls beyond a smaller quota after a downgrade, and accepts none until next month", async () => {
    const org = await createOrg("pro");
    const owner = await addMember(org.id, "owner");
    const { value } = await insertKey(org.id);
    const calls = await Promise.all(Array.from({ length: 55 }, () => api.request(PATH, { key: value })));
    expect(calls.every((r) => r.status === 200)).toBe(true);
    actAs(owner.id);
    expect((await changePlanAction(null, form({ orgId: org.id, plan: "trial" }))).ok).toBe(true);
    expect(await countedThisMonth(org.id)).toBe(55);
    const refused = await api.request(PATH, { key: value });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe("monthly_quota_exceeded");
    expect(refused.headers.get("x-quota-remaining")).toBe("0");
    // Back on Pro, the same 55 calls count toward its 10,000.
    expect((await changePlanAction(null, form({ orgId: org.id, plan: "pro" }))).ok).toBe(true);
    const accepted = await api.request(PATH, { key: value });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("x-quota-remaining")).toBe(String(10_000 - 56));
  });

  it("writes one audit row per response received", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id);
    const revoked = await insertKey(org.id, { revoked: true });
    const responses = await Promise.all(
      Array.from({ length: 90 }, (_, i) => api.request(i % 3 === 0 ? "/v1/unknown" : PATH, { key: i % 10 === 0 ? revoked.value : value })),
    );
    const [row] = await getDb().select({ n: count() }).from(requestLog).where(eq(requestLog.orgId, org.id));
    expect(row!.n).toBe(responses.length);
    const ids = new Set(responses.map((r) => r.headers.get("x-request-id")));
    const logged = new Set((await logRows(org.id)).map((r) => r.requestId));
    expect(logged).toEqual(ids);
  });
});

// Every refusal and header above, checked against the served document.
itMatchesTheDocument(api, 450);
