import { parse as parseCsv } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { exportAuditCsv } from "@/app/[orgSlug]/settings/api/audit/export/export-audit-csv";
import { GET as exportRoute } from "@/app/[orgSlug]/settings/api/audit/export/route";
import { loadAuditLog } from "@/app/[orgSlug]/settings/api/audit/load-audit-log";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { listAuditLog, type AuditLogRowDto } from "@/db/queries/audit-log";
import { getAuditFilterOptions } from "@/lib/usage/filter-options";
import { chooseRoute, rowsPassedInTimeOrder, type Route } from "@/db/queries/audit-log-route";
import { trafficScope } from "@/db/queries/keys-of-mode";
import type { RequestLogEntry } from "@/db/queries/request-log-writer";
import { auditSearchParams, encodeCursor, parseAuditFilters, type AuditFilters } from "@/lib/audit-filters";
import { utcDay } from "@/core/time";
import { addMember, createOrg, createTeam, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { actAs, readAs } from "./helpers/session";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);

const TRICKY_AGENT = 'Mozilla/5.0 (X11; "quoted", comma)\nsecond line';
const FORMULA_AGENT = '=HYPERLINK("http://example.test","click")';
const TRICKY_PATH = '/v1/invoices?customer=a,b&note="hi"';

let team: Awaited<ReturnType<typeof createTeam>>;
let prodKey: string;
let legacyKey: string;
let foreign: { orgId: string; slug: string; keyId: string; ownerId: string };
/** Every row written, in insertion order (so in id order). */
const written: RequestLogEntry[] = [];

async function add(entry: Parameters<typeof logRequest>[0]) {
  written.push(await logRequest(entry));
}

/** Test cases are listed before the keys exist: they name them, and the ids are filled in here. */
function withKeyIds(params: Record<string, string>): Record<string, string> {
  const ids: Record<string, string> = { prod: prodKey, legacy: legacyKey };
  return params.key ? { ...params, key: ids[params.key] ?? params.key } : params;
}

function filtersOf(params: Record<string, string>): AuditFilters {
  const parsed = parseAuditFilters(withKeyIds(params));
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

/** The organization's rows a filter should select, newest first, ties broken by newest id. */
function expected(select: (row: RequestLogEntry) => boolean): string[] {
  return written
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => row.orgId === team.org.id && select(row))
    .sort((a, b) => b.row.at.getTime() - a.row.at.getTime() || b.index - a.index)
    .map(({ row }) => row.requestId);
}

/** Both ways a page can be read; on this small log the rollups would always choose time order. */
const ROUTES: Route[] = ["time-order", "by-combination"];

async function allRows(params: Record<string, string>, route?: Route): Promise<AuditLogRowDto[]> {
  const page = await listAuditLog({ orgId: team.org.id, mode: "live" }, filtersOf(params), { now, pageSize: 1000, route });
  expect(page.older).toBeNull();
  return page.rows;
}

beforeAll(async () => {
  team = await createTeam("pro");
  prodKey = (await insertKey(team.org.id, { name: "Production billing server" })).id;
  legacyKey = (await insertKey(team.org.id, { name: "Legacy CSV importer", revoked: true })).id;
  const foreignOrg = await createOrg("pro");
  foreign = { orgId: foreignOrg.id, slug: foreignOrg.slug, keyId: (await insertKey(foreignOrg.id)).id, ownerId: (await addMember(foreignOrg.id, "owner")).id };

  const prod = { orgId: team.org.id, apiKeyId: prodKey };
  const legacy = { orgId: team.org.id, apiKeyId: legacyKey, touchesKey: false };
  await add({ ...prod, at: ago(40 * DAY), endpoint: "GET /v1/invoices/{id}", path: "/v1/invoices/in_old", status: 404 });
  await add({ ...prod, at: ago(40 * DAY - HOUR), endpoint: "GET /v1/invoices", status: 200 });
  await add({ ...legacy, at: ago(20 * DAY), endpoint: "POST /v1/invoices", status: 201 });
  await add({ ...prod, at: ago(10 * DAY), endpoint: "POST /v1/pdf/generate", status: 503 });
  await add({ ...prod, at: ago(10 * DAY - HOUR), endpoint: "GET /v1/invoices", status: 302 });
  await add({ ...legacy, at: ago(8 * DAY), endpoint: "GET /v1/invoices", status: 401 });
  await add({ ...prod, at: ago(3 * DAY), endpoint: "DELETE /v1/customers/{id}", path: "/v1/customers/cus_1", status: 204 });
  // Three calls in the same millisecond: only the id tells them apart.
  for (const status of [200, 200, 429]) await add({ ...prod, at: ago(2 * DAY), endpoint: "GET /v1/customers", status });
  await add({ ...prod, at: ago(30 * HOUR), endpoint: "GET /v1/invoices", status: 500 });
  await add({ ...prod, at: ago(6 * HOUR), endpoint: "GET /v1/invoices", path: TRICKY_PATH, status: 200, userAgent: TRICKY_AGENT });
  await add({ ...prod, at: ago(5.5 * HOUR), endpoint: "GET /v1/invoices", status: 200, userAgent: FORMULA_AGENT, ip: null });
  await add({ ...prod, at: ago(5 * HOUR), endpoint: "POST /v1/invoices", status: 422 });
  await add({ ...legacy, at: ago(4 * HOUR), endpoint: "GET /v1/invoices", status: 401 });
  await add({ ...prod, at: ago(3 * HOUR), endpoint: "POST /v1/invoices", status: 201 });
  await add({ ...prod, at: ago(2 * HOUR), endpoint: "GET /v1/invoices/{id}", path: "/v1/invoices/in_1", status: 404 });
  await add({ ...prod, at: ago(HOUR), endpoint: "GET /v1/invoices", status: 200 });
  // A restricted key's refusals, by their error code: both 403, told apart only by it.
  await add({ ...prod, at: ago(50 * HOUR), endpoint: "POST /v1/customers", status: 403, errorCode: "api_key_scope_insufficient", touchesKey: false });
  await add({ ...prod, at: ago(45 * HOUR), endpoint: "GET /v1/customers", status: 403, errorCode: "ip_not_allowed", ip: "198.51.100.201", touchesKey: false });
  await add({ ...prod, at: ago(44 * HOUR), endpoint: "GET /v1/customers", status: 403, errorCode: "ip_not_allowed", ip: "198.51.100.201", touchesKey: false });
  await add({ orgId: foreign.orgId, apiKeyId: foreign.keyId, at: ago(HOUR), endpoint: "GET /v1/invoices", status: 404 });
  await add({ orgId: foreign.orgId, apiKeyId: foreign.keyId, at: ago(2 * DAY), endpoint: "GET /v1/customers", status: 200 });
  // Values only the other organization has seen: its filter choices must not reach this one's.
  await add({
    orgId: foreign.orgId,
    apiKeyId: foreign.keyId,
    at: ago(3 * HOUR),
    endpoint: "DELETE /v1/products/{id}",
    path: "/v1/products/prod_1",
    status: 409,
  });
  await add({
    orgId: foreign.orgId,
    apiKeyId: foreign.keyId,
    at: ago(3 * HOUR),
    endpoint: "PATCH /v1/products/{id}",
    path: "/v1/products/prod_1",
    status: 409,
  });
});

beforeEach(() => actAs(null));

describe("audit log filters", () => {
  const from = utcDay(ago(12 * DAY));
  const to = utcDay(ago(2 * DAY));
  const fromStart = () => new Date(`${from}T00:00:00.000Z`).getTime();
  const toEnd = () => new Date(`${to}T00:00:00.000Z`).getTime() + DAY;
  const since = (ms: number) => (row: RequestLogEntry) => row.at.getTime() >= now.getTime() - ms;

  describe.each(ROUTES)("read %s", (route) => {
    it.each<[string, Record<string, string>, (row: RequestLogEntry) => boolean]>([
      ["no filter: every request of the organization", {}, () => true],
      ["the last 24 hours", { range: "24h" }, since(DAY)],
      ["the last 7 days", { range: "7d" }, since(7 * DAY)],
      ["the last 30 days", { range: "30d" }, since(30 * DAY)],
      ["a custom range, both days included", { range: "custom", from, to }, (r) => r.at.getTime() >= fromStart() && r.at.getTime() < toEnd()],
      ["a custom range with only a to date", { range: "custom", to }, (r) => r.at.getTime() < toEnd()],
      ["a custom range with only a from date", { range: "custom", from }, (r) => r.at.getTime() >= fromStart()],
      ["an endpoint", { endpoint: "GET /v1/invoices" }, (r) => r.endpoint === "GET /v1/invoices"],
      ["an exact status", { status: "404" }, (r) => r.status === 404],
      ["a status class", { status: "4xx" }, (r) => r.status >= 400 && r.status < 500],
      ["another status class, upper case", { status: "2XX" }, (r) => r.status >= 200 && r.status < 300],
      ["a revoked key", { key: "legacy" }, (r) => r.apiKeyId === legacyKey],
      ["a method, any case", { method: "post" }, (r) => r.method === "POST"],
      [
        "key, endpoint, status class and range together",
        { key: "prod", endpoint: "GET /v1/invoices/{id}", status: "4xx", range: "7d" },
        (r) => r.apiKeyId === prodKey && r.endpoint === "GET /v1/invoices/{id}" && r.status >= 400 && r.status < 500 && since(7 * DAY)(r),
      ],
      ["a refusal of the IP allowlist, its status filled in", { error: "ip_not_allowed" }, (r) => r.errorCode === "ip_not_allowed"],
      [
        "a refusal of access on one endpoint",
        { error: "api_key_scope_insufficient", endpoint: "POST /v1/customers" },
        (r) => r.errorCode === "api_key_scope_insufficient",
      ],
      ["a refusal with its status class", { error: "ip_not_allowed", status: "4xx", key: "prod" }, (r) => r.errorCode === "ip_not_allowed"],
      [
        "method, status class and a custom range together",
        { method: "GET", status: "2xx", range: "custom", from, to },
        (r) => r.method === "GET" && r.status < 300 && r.at.getTime() >= fromStart() && r.at.getTime() < toEnd(),
      ],
    ])("selects %s", async (_label, params, select) => {
      const ids = expected(select);
      expect(ids.length).toBeGreaterThan(0);
      expect((await allRows(params, route)).map((row) => row.requestId)).toEqual(ids);
    });
  });

  it("selects nothing for another organization's key id", async () => {
    expect(await allRows({ key: foreign.keyId })).toEqual([]);
  });

  it("shows each row's key by name and hint, revoked keys included", async () => {
    const [row] = await allRows({ key: legacyKey, range: "24h" });
    expect(row).toMatchObject({
      keyId: legacyKey,
      keyName: "Legacy CSV importer",
      keyHint: expect.stringMatching(/^ik_/),
      keyRevoked: true,
      method: "GET",
      status: 401,
    });
    const [prod] = await allRows({ key: prodKey, range: "24h" });
    expect(prod).toMatchObject({ keyName: "Production billing server", keyRevoked: false, path: "/v1/invoices", durationMs: 42, ip: "203.0.113.7" });
  });

  it.each([
    [{ status: "4x" }, "Use a status code such as 404 or a class such as 4xx."],
    [{ status: "600" }, "Use a status code such as 404 or a class such as 4xx."],
    [{ range: "2d" }, "Choose a date range: 1h, 24h, 7d, 30d, 90d or custom."],
    [{ range: "7d", from: "2026-01-01" }, "A from or to date needs the custom date range."],
    [{ range: "custom" }, "Choose a from or to date for the custom range."],
    [{ range: "custom", from: "2026-02-01", to: "2026-01-01" }, "The to date is before the from date."],
    [{ range: "custom", from: "2026-02-30" }, "Use a date such as 2026-01-31."],
    [{ method: "GET;drop" }, "Use an HTTP method such as GET or POST."],
    [{ before: "yesterday" }, "This page link is out of date. Go back to the newest requests."],
  ])("refuses the URL %o with a message that says why", (params, message) => {
    const parsed = parseAuditFilters(params);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it("treats empty parameters as absent and round-trips through the URL", () => {
    const filters = filtersOf({ range: "", status: "4XX", method: "get", endpoint: "GET /v1/invoices", key: "" });
    expect(filters).toEqual({ status: "4xx", method: "GET", endpoint: "GET /v1/invoices" });
    expect(filtersOf(Object.fromEntries(auditSearchParams(filters)))).toEqual(filters);
  });

  it("reads a refusal filter with the status it always has, and refuses a status that contradicts it", () => {
    const filters = filtersOf({ error: "api_key_scope_insufficient" });
    expect(filters).toEqual({ error: "api_key_scope_insufficient", status: "403" });
    expect(auditSearchParams(filters).toString()).toBe("status=403&error=api_key_scope_insufficient");
    const contradicting = parseAuditFilters({ error: "ip_not_allowed", status: "200" });
    expect(contradicting.success ? null : contradicting.error.issues[0]?.message).toBe(
      "A refusal of kind ip_not_allowed is always a 403: choose that status, or any.",
    );
    const unknown = parseAuditFilters({ error: "teapot" });
    expect(unknown.success ? null : unknown.error.issues[0]?.message).toMatch(/^Choose a refusal: api_key_revoked, /);
  });

  it("offers the endpoints, statuses and methods the organization has seen, and none of another's", async () => {
    const options = await getAuditFilterOptions({ orgId: team.org.id, mode: "live" });
    expect(options.endpoints).toEqual([
      "GET /v1/customers",
      "POST /v1/customers",
      "DELETE /v1/customers/{id}",
      "GET /v1/invoices",
      "POST /v1/invoices",
      "GET /v1/invoices/{id}",
      "POST /v1/pdf/generate",
    ]);
    expect(options.statuses).toEqual([200, 201, 204, 302, 401, 403, 404, 422, 429, 500, 503]);
    expect(options.methods).toEqual(["DELETE", "GET", "POST"]);
    const foreignOptions = await getAuditFilterOptions({ orgId: foreign.orgId, mode: "live" });
    expect(foreignOptions.endpoints).toContain("DELETE /v1/products/{id}");
    expect(foreignOptions.statuses).toContain(409);
    expect(foreignOptions.methods).toContain("PATCH");
  });
});

describe("how a page is read", () => {
  it("counts the rows a time-ordered read passes before it has a page", () => {
    // Newest day first: 1,000 rows with 10 matches, then 5,000 with 100.
    const days = [
      { total: 1_000, matching: 10 },
      { total: 5_000, matching: 100 },
    ];
    expect(rowsPassedInTimeOrder(days, 10)).toBe(1_000);
    expect(rowsPassedInTimeOrder(days, 60)).toBe(1_000 + 5_000 * (50 / 100));
    // Fewer matches than a page: the read passes every row of the window.
    expect(rowsPassedInTimeOrder(days, 500)).toBe(6_000);
    expect(rowsPassedInTimeOrder([{ total: 40_000, matching: 0 }], 51)).toBe(40_000);
    expect(rowsPassedInTimeOrder([], 51)).toBe(0);
  });

  it("reads a sparse combination one (key, endpoint, status) at a time, and a dense one in time order", async () => {
    const org = await createOrg("enterprise");
    const { id: busy } = await insertKey(org.id);
    const { id: quiet } = await insertKey(org.id);
    // The rollups alone decide, so they are written as a long log would have them: 30,000 of the
    // busy key's calls today and two 503s of the quiet key.
    await getDb().execute(sql`
      insert into request_daily_rollup (org_id, api_key_id, day, endpoint, status, count)
      values (${org.id}, ${busy}, ${utcDay(now)}, 'GET /v1/invoices', 200, 30000),
             (${org.id}, ${quiet}, ${utcDay(now)}, 'POST /v1/invoices', 503, 2)`);
    const sparse = await logRequest({ orgId: org.id, apiKeyId: quiet, at: ago(HOUR), endpoint: "POST /v1/invoices", status: 503 });
    await logRequest({ orgId: org.id, apiKeyId: busy, at: ago(HOUR / 2), endpoint: "GET /v1/invoices", status: 200 });
    const first = { direction: "older", limit: 51 } as const;
    expect(await chooseRoute(await trafficScope({ orgId: org.id, mode: "live" }), { key: quiet, status: "503" }, now, first)).toBe("by-combination");
    expect(await chooseRoute(await trafficScope({ orgId: org.id, mode: "live" }), { key: busy }, now, first)).toBe("time-order");
    expect(await chooseRoute(await trafficScope({ orgId: org.id, mode: "live" }), {}, now, first)).toBe("time-order");
    const page = await listAuditLog({ orgId: org.id, mode: "live" }, { key: quiet, status: "503" }, { now });
    expect(page.rows.map((row) => row.requestId)).toEqual([sparse.requestId]);
  });
});

describe("audit log pagination", () => {
  /** Follows "Older" from the first page to the last, then "Newer" back to the first. */
  async function walk(orgId: string, params: Record<string, string>, pageSize: number, route?: Route) {
    const base = filtersOf(params);
    const older: string[][] = [];
    let page = await listAuditLog({ orgId: orgId, mode: "live" }, base, { now, pageSize, route });
    expect(page.newer).toBeNull();
    for (;;) {
      older.push(page.rows.map((row) => row.requestId));
      if (!page.older) break;
      page = await listAuditLog({ orgId: orgId, mode: "live" }, filtersOf({ ...params, before: encodeCursor(page.older) }), { now, pageSize, route });
      expect(page.newer).not.toBeNull();
    }
    const newer: string[][] = [page.rows.map((row) => row.requestId)];
    while (page.newer) {
      page = await listAuditLog({ orgId: orgId, mode: "live" }, filtersOf({ ...params, after: encodeCursor(page.newer) }), { now, pageSize, route });
      newer.unshift(page.rows.map((row) => row.requestId));
    }
    return { older, newer };
  }

  type WalkCase = [string, Record<string, string>, (row: RequestLogEntry) => boolean, Route | undefined];
  it.each<WalkCase>([
    ["every row", {}, () => true, undefined],
    ...ROUTES.map((route) => [`the rows of a filter, read ${route}`, { status: "2xx" }, (r: RequestLogEntry) => r.status < 300, route] satisfies WalkCase),
    ...ROUTES.map(
      (route) =>
        [
          `a sparse combination, read ${route}`,
          { key: "prod", status: "4xx", range: "30d" },
          (r: RequestLogEntry) => r.apiKeyId === prodKey && r.status >= 400 && r.status < 500 && r.at.getTime() >= now.getTime() - 30 * DAY,
          route,
        ] satisfies WalkCase,
    ),
  ])("visits %s exactly once, older and newer, across a same-millisecond tie", async (_label, params, select, route) => {
    const ids = expected(select);
    for (const pageSize of [1, 2, 4, ids.length]) {
      const { older, newer } = await walk(team.org.id, params, pageSize, route);
      expect(older.flat()).toEqual(ids);
      expect(older.every((p) => p.length === pageSize || p === older[older.length - 1])).toBe(true);
      expect(newer).toEqual(older);
    }
  });

  it("keeps its place between rows stored within the same millisecond", async () => {
    const org = await createOrg("pro");
    const { id: keyId } = await insertKey(org.id);
    const base = new Date(Math.floor(now.getTime() / 1000) * 1000 - HOUR).toISOString();
    // Times the gateway cannot produce but PostgreSQL stores: microseconds apart, and exact ties.
    for (const micros of [100, 200, 200, 300, 999]) {
      await getDb().execute(sql`
        insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, created_at)
        values (${org.id}, ${keyId}, ${`req_us_${micros}_${Math.random()}`}, 'GET', '/v1/invoices', 'GET /v1/invoices', 200, 1,
                ${base}::timestamptz + ${`${micros} microseconds`}::interval)`);
    }
    const everything = (await listAuditLog({ orgId: org.id, mode: "live" }, {}, { now })).rows.map((row) => row.requestId);
    expect(everything).toHaveLength(5);
    for (const pageSize of [1, 2, 3]) {
      const { older, newer } = await walk(org.id, {}, pageSize);
      expect(older.flat()).toEqual(everything);
      expect(newer).toEqual(older);
    }
  });

  it("offers the way back from a page past the end", async () => {
    const all = await allRows({});
    const oldest = all[all.length - 1]!;
    const past = await listAuditLog({ orgId: team.org.id, mode: "live" }, filtersOf({ before: `${oldest.createdAt.replace("Z", "000Z")}_${oldest.id}` }), {
      now,
    });
    expect(past.rows).toEqual([]);
    expect(past.older).toBeNull();
    expect(past.newer).not.toBeNull();
  });
});

describe("audit log CSV export", () => {
  async function exportAs(userId: string | null, params: Record<string, string>, slug = team.org.slug) {
    return readAs(userId, () => exportAuditCsv(slug, new URLSearchParams(withKeyIds(params)), now));
  }

  /** A row as the CSV should carry it, formula-looking text made inert. */
  function csvRecord(row: AuditLogRowDto): Record<string, string> {
    const text = (value: string | number | null) => (value === null ? "" : /^[=+\-@\t\r]/.test(String(value)) ? `'${value}` : String(value));
    return {
      time: row.createdAt,
      request_id: row.requestId,
      key_id: row.keyId,
      key_name: text(row.keyName),
      key_hint: text(row.keyHint),
      key_status: row.keyRevoked ? "revoked" : "active",
      method: row.method,
      path: text(row.path),
      endpoint: row.endpoint,
      status: String(row.status),
      error_code: row.errorCode ?? "",
      duration_ms: String(row.durationMs),
      ip: text(row.ip),
      user_agent: text(row.userAgent),
    };
  }

  it.each([
    ["everything", {}],
    ["an endpoint over 7 days", { endpoint: "GET /v1/invoices", range: "7d" }],
    ["a status class of one key", { status: "4xx", key: "prod" }],
    ["one kind of refusal", { error: "ip_not_allowed" }],
  ])("has exactly the rows the page shows for %s", async (_label, params) => {
    const response = await exportAs(team.member.id, params);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="audit-log-${team.org.slug}-${utcDay(now)}.csv"`);
    const records = parseCsv(await response.text(), { columns: true }) as Record<string, string>[];
    const rows = await allRows(params);
    expect(rows.length).toBeGreaterThan(0);
    expect(records).toEqual(rows.map(csvRecord));
  });

  it("escapes commas, quotes and newlines, and defuses formulas", async () => {
    const text = await (await exportAs(team.owner.id, { range: "24h", endpoint: "GET /v1/invoices" })).text();
    expect(text).toContain(`"Mozilla/5.0 (X11; ""quoted"", comma)\nsecond line"`);
    expect(text).toContain(`"/v1/invoices?customer=a,b&note=""hi"""`);
    const records = parseCsv(text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.user_agent)).toContain(TRICKY_AGENT);
    expect(records.map((r) => r.path)).toContain(TRICKY_PATH);
    expect(records.map((r) => r.user_agent)).toContain(`'${FORMULA_AGENT}`);
    expect(text.split("\n")[0]).toBe("time,request_id,key_id,key_name,key_hint,key_status,method,path,endpoint,status,error_code,duration_ms,ip,user_agent");
  });

  it("takes a filter's quotes, percent signs, $1 and backslashes as text, not as SQL", async () => {
    const org = await createOrg("pro");
    const { id: keyId } = await insertKey(org.id);
    const owner = await addMember(org.id, "owner");
    const strange = "GET /v1/it's 100% $1 \\ done";
    const row = await logRequest({ orgId: org.id, apiKeyId: keyId, at: ago(HOUR), endpoint: strange, status: 200 });
    await logRequest({ orgId: org.id, apiKeyId: keyId, at: ago(HOUR), endpoint: "GET /v1/invoices", status: 200 });
    const exported = async (endpoint: string) =>
      parseCsv(await (await readAs(owner.id, () => exportAuditCsv(org.slug, new URLSearchParams({ endpoint }), now))).text(), { columns: true }) as Record<
        string,
        string
      >[];
    expect((await exported(strange)).map((record) => record.request_id)).toEqual([row.requestId]);
    expect(await exported("x' or ''='")).toEqual([]);
    expect(await exported("%")).toEqual([]);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "frees the database when the reader leaves mid-export",
    async () => {
      const org = await createOrg("enterprise");
      const { id: keyId } = await insertKey(org.id);
      const owner = await addMember(org.id, "owner");
      // About 25 MB of CSV: far more than the socket buffers hold, so the COPY is still running.
      await getDb().execute(sql`
      insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, user_agent, created_at)
      select ${org.id}, ${keyId}, 'req_many_' || g, 'GET', '/v1/invoices', 'GET /v1/invoices', 200, 1, repeat('agent ', 10),
             ${ago(HOUR).toISOString()}::timestamptz - make_interval(secs => g)
      from generate_series(1, 200000) g`);
      // More exports than the COPY client has connections: each left one would be stuck for good.
      for (let i = 0; i < 3; i++) {
        const response = await readAs(owner.id, () => exportAuditCsv(org.slug, new URLSearchParams(), now));
        const reader = response.body!.getReader();
        expect((await reader.read()).value!.byteLength).toBeGreaterThan(0);
        await reader.cancel();
      }
      const copies = rowsOf<{ state: string; query: string }>(
        await getDb().execute(sql`select state, query from pg_stat_activity where application_name = 'invoicing-service copy' and state <> 'idle'`),
      );
      expect(copies).toEqual([]);
      const whole = await (await readAs(owner.id, () => exportAuditCsv(org.slug, new URLSearchParams(), now))).text();
      expect(whole.split("\n")).toHaveLength(200_000 + 2);
      // Every export of the process went through one COPY client of two connections.
      const [opened] = rowsOf<{ n: number }>(
        await getDb().execute(
          sql`select count(*)::int as n from pg_stat_activity where application_name = 'invoicing-service copy' and datname = current_database()`,
        ),
      );
      expect(opened!.n).toBeLessThanOrEqual(2);
    },
    60_000,
  );

  it("has only the header when nothing matches, such as another organization's key", async () => {
    const text = await (await exportAs(team.admin.id, { key: foreign.keyId })).text();
    expect(text).toBe("time,request_id,key_id,key_name,key_hint,key_status,method,path,endpoint,status,error_code,duration_ms,ip,user_agent\n");
  });

  it("refuses filters that are not valid, saying why", async () => {
    const response = await exportAs(team.member.id, { status: "4x" });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("The export's filters are not valid: Use a status code such as 404 or a class such as 4xx.");
  });
});

describe("who may read the audit log", () => {
  it.each(["owner", "admin", "member"] as const)("shows the rows to an %s", async (role) => {
    const view = await readAs(team.byRole[role].id, () => loadAuditLog(team.org.slug, { status: "4xx" }));
    expect(view.kind).toBe("ok");
    if (view.kind !== "ok") return;
    expect(view.page.rows.map((row) => row.requestId)).toEqual(expected((r) => r.status >= 400 && r.status < 500));
    expect(view.keys.map((key) => key.name).sort()).toEqual(["Legacy CSV importer", "Production billing server"]);
    expect((await readAs(team.byRole[role].id, () => exportAuditCsv(team.org.slug, new URLSearchParams()))).status).toBe(200);
  });

  it("refuses a guest the page's rows and the export, with the reason", async () => {
    const view = await readAs(team.guest.id, () => loadAuditLog(team.org.slug, {}));
    expect(view).toEqual({ kind: "refused", status: 403, message: "Guests cannot view or export the audit log." });
    const response = await readAs(team.guest.id, () => exportAuditCsv(team.org.slug, new URLSearchParams()));
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toBe("Guests cannot view or export the audit log.");
    expect(body).not.toContain("req_");
  });

  it("refuses a guest through the export route with the session's user", async () => {
    const call = () =>
      exportRoute(new NextRequest(`http://localhost/${team.org.slug}/settings/api/audit/export`), { params: Promise.resolve({ orgSlug: team.org.slug }) });
    actAs(team.guest.id);
    expect((await call()).status).toBe(403);
    actAs(team.member.id);
    const response = await call();
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(written.find((row) => row.orgId === team.org.id)!.requestId);
    actAs(null);
    expect((await call()).status).toBe(401);
  });

  it("answers another organization's slug with not found, for the page and the export", async () => {
    expect(await readAs(foreign.ownerId, () => loadAuditLog(team.org.slug, {}))).toMatchObject({ kind: "refused", status: 404 });
    const response = await readAs(foreign.ownerId, () => exportAuditCsv(team.org.slug, new URLSearchParams()));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not found.");
    // And their own log has only their rows, whatever key id they put in the URL.
    const own = await readAs(foreign.ownerId, () => loadAuditLog(foreign.slug, { key: prodKey }));
    expect(own.kind === "ok" && own.page.rows).toEqual([]);
  });

  it("tells the page what is wrong with a hand-edited URL", async () => {
    expect(await readAs(team.member.id, () => loadAuditLog(team.org.slug, { range: "custom", from: "2026-02-01", to: "2026-01-01" }))).toMatchObject({
      kind: "invalid",
      message: "The to date is before the from date.",
    });
  });
});
