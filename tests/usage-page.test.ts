import { parse as parseCsv } from "csv-parse/sync";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { exportAuditCsv } from "@/app/[orgSlug]/settings/api/audit/export/export-audit-csv";
import { exportUsageCsv } from "@/app/[orgSlug]/settings/api/usage/export/export-usage-csv";
import { GET as exportRoute } from "@/app/[orgSlug]/settings/api/usage/export/route";
import { loadUsage, type UsageView } from "@/app/[orgSlug]/settings/api/usage/load-usage";
import { BREAKDOWN_NAMES } from "@/lib/usage/breakdowns";
import { auditParamsFor, chartWindow, usageWindow, type UsageFilters } from "@/lib/usage/filters";
import type { BreakdownRowDto, UsageReportDto } from "@/lib/usage/report";
import { apiClient, contractApi, type ApiClient } from "./helpers/api-contract";
import { addMember, createTeam, insertKey } from "./helpers/factories";
import { actAs, readAs } from "./helpers/session";

const api = contractApi();
const FORMULA_NAME = '=HYPERLINK("http://example.test","click")';

let client: ApiClient;
let slug: string;
let prod: { id: string; value: string };
let importer: { id: string; value: string };
let people: Record<"owner" | "admin" | "member" | "guest", string>;

/** The calls this file makes, by key: endpoint and the status the API answers. */
const CALLS = [
  ...Array.from({ length: 6 }, () => ({ key: "prod", path: "/v1/invoices", endpoint: "GET /v1/invoices", status: 200 })),
  ...Array.from({ length: 2 }, () => ({ key: "prod", path: "/v1/invoices/in_missing", endpoint: "GET /v1/invoices/{id}", status: 404 })),
  ...Array.from({ length: 3 }, () => ({ key: "importer", path: "/v1/products", endpoint: "GET /v1/products", status: 200 })),
  { key: "importer", path: "/v1/customers/cus_missing", endpoint: "GET /v1/customers/{id}", status: 404 },
] as const;

async function view(userId: string, params: Record<string, string>): Promise<Omit<Extract<UsageView, { kind: "ok" }>, "report"> & { report: UsageReportDto }> {
  const result = await readAs(userId, () => loadUsage(slug, params));
  if (result.kind !== "ok") throw new Error(`Expected the usage page, got ${JSON.stringify(result)}`);
  return { ...result, report: await result.report };
}

async function auditRecords(params: URLSearchParams) {
  const response = await readAs(people.member, () => exportAuditCsv(slug, params));
  expect(response.status).toBe(200);
  return parseCsv(await response.text(), { columns: true }) as Record<string, string>[];
}

const counts = (row: Pick<BreakdownRowDto, "requests" | "errors4xx" | "errors5xx">) => [row.requests, row.errors4xx, row.errors5xx];

beforeAll(async () => {
  client = await apiClient(api);
  slug = client.org.slug;
  prod = await insertKey(client.org.id, { name: "Production" });
  importer = await insertKey(client.org.id, { name: FORMULA_NAME });
  people = {
    owner: (await addMember(client.org.id, "owner")).id,
    admin: (await addMember(client.org.id, "admin")).id,
    member: (await addMember(client.org.id, "member")).id,
    guest: (await addMember(client.org.id, "guest")).id,
  };
  for (const call of CALLS) {
    const response = await client.call(call.path, { key: call.key === "prod" ? prod.value : importer.value });
    expect(response.status, call.path).toBe(call.status);
  }
});

describe("the Usage page's data", () => {
  it.each(["1h", "24h", "7d", "90d"])(
    "counts every call of the last seconds in the last %s, and each breakdown row equals the audit log rows its link selects",
    async (range) => {
      const { filters, report } = await view(people.member, { range });
      expect(report.totals.requests).toBe(CALLS.length);
      expect(report.totals.errors4xx).toBe(CALLS.filter((call) => call.status === 404).length);
      expect((await auditRecords(auditParamsFor(filters, report.window))).length).toBe(CALLS.length);
      for (const name of BREAKDOWN_NAMES) {
        const rows = report.breakdowns[name];
        expect(
          rows.reduce((sum, row) => sum + row.requests, 0),
          name,
        ).toBe(CALLS.length);
        for (const row of rows) {
          const records = await auditRecords(auditParamsFor(filters, report.window, row));
          const status = (record: Record<string, string>) => Number(record.status);
          expect(counts(row), `${name} ${row.id}`).toEqual([
            records.length,
            records.filter((r) => status(r) >= 400 && status(r) < 500).length,
            records.filter((r) => status(r) >= 500).length,
          ]);
          expect(row.share).toBeCloseTo(row.requests / CALLS.length, 10);
          expect(row.p50Ms! <= row.p95Ms! && row.p95Ms! <= row.p99Ms!).toBe(true);
        }
      }
      expect(report.breakdowns["key-endpoint"].map((row) => [row.keyName, row.endpoint, row.requests])).toEqual([
        ["Production", "GET /v1/invoices", 6],
        [FORMULA_NAME, "GET /v1/products", 3],
        ["Production", "GET /v1/invoices/{id}", 2],
        [FORMULA_NAME, "GET /v1/customers/{id}", 1],
      ]);
    },
  );

  it("draws every minute of the last hour, and the bars add up to the total", async () => {
    const { report } = await view(people.member, { range: "1h" });
    expect(report.window.bucket).toBe("minute");
    expect(report.series).toHaveLength(60);
    expect(report.series.reduce((sum, point) => sum + point.requests, 0)).toBe(CALLS.length);
    for (const point of report.series) expect(point.success + point.errors4xx + point.errors5xx).toBe(point.requests);
  });

  it("narrows to one key and status class, rows and totals alike", async () => {
    const { report } = await view(people.member, { range: "24h", key: prod.id, status: "4xx" });
    expect(report.window.bucket).toBe("hour");
    expect(counts(report.totals)).toEqual([2, 2, 0]);
    expect(report.breakdowns.endpoint.map((row) => [row.endpoint, row.requests, row.rate4xx])).toEqual([["GET /v1/invoices/{id}", 2, 1]]);
    expect(report.breakdowns.key.map((row) => [row.keyId, row.keyName, row.keyHint])).toEqual([[prod.id, "Production", expect.stringMatching(/^ik_/)]]);
  });

  it("exports a breakdown as CSV, the same rows, a key name that is a formula kept as text", async () => {
    const { report } = await view(people.member, { range: "1h" });
    const response = await readAs(people.member, () => exportUsageCsv(slug, new URLSearchParams({ range: "1h", table: "key-endpoint" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="usage-by-key-endpoint-${slug}-\\d{4}-\\d\\d-\\d\\d\\.csv"$`),
    );
    const records = parseCsv(await response.text(), { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.key_id, r.endpoint, Number(r.requests), Number(r.errors_4xx), Number(r.p95_ms)])).toEqual(
      report.breakdowns["key-endpoint"].map((row) => [row.keyId, row.endpoint, row.requests, row.errors4xx, row.p95Ms]),
    );
    expect(records.find((r) => r.key_id === importer.id)!.key_name).toBe(`'${FORMULA_NAME}`);
  });

  it("refuses what it cannot show, saying why, and reads nothing", async () => {
    const tooOld = await readAs(people.member, () => loadUsage(slug, { range: "custom", from: "2020-01-01", to: "2020-01-31" }));
    expect(tooOld).toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/^Usage goes back to \d{4}-\d\d-01 \(13 months\): choose a from date on or after it\.$/),
    });
    expect(await readAs(people.member, () => loadUsage(slug, { status: "4x" }))).toMatchObject({
      kind: "invalid",
      message: "Use a status code such as 404 or a class such as 4xx.",
    });
    expect(await readAs(people.member, () => loadUsage(slug, { range: "2h" }))).toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/^Choose a date range: 1h, 24h, 7d, 30d, 90d or custom\.$/),
    });
    const badTable = await readAs(people.member, () => exportUsageCsv(slug, new URLSearchParams({ table: "status" })));
    expect([badTable.status, await badTable.text()]).toEqual([400, "Choose a table: key, endpoint, key-endpoint."]);
    const badWindow = await readAs(people.member, () => exportUsageCsv(slug, new URLSearchParams({ range: "custom", from: "2020-01-01" })));
    expect(badWindow.status).toBe(400);
    expect(await badWindow.text()).toMatch(/^The export's window is not valid: Usage goes back to/);
  });
});

describe("who may see usage", () => {
  it.each(["owner", "admin", "member"] as const)("shows it to an %s", async (role) => {
    const { report } = await view(people[role], {});
    expect(report.totals.requests).toBe(CALLS.length);
    expect((await readAs(people[role], () => exportUsageCsv(slug, new URLSearchParams()))).status).toBe(200);
  });

  it("refuses a guest the page and the CSV, with the reason and no row", async () => {
    expect(await readAs(people.guest, () => loadUsage(slug, {}))).toEqual({
      kind: "refused",
      status: 403,
      message: "Guests cannot view or export the organization's API usage.",
    });
    const response = await readAs(people.guest, () => exportUsageCsv(slug, new URLSearchParams()));
    expect([response.status, await response.text()]).toEqual([403, "Guests cannot view or export the organization's API usage."]);
  });

  it("refuses through the export route by the session's user: a guest, nobody, a stranger", async () => {
    const call = () =>
      exportRoute(new NextRequest(`http://localhost/${slug}/settings/api/usage/export?table=key`), { params: Promise.resolve({ orgSlug: slug }) });
    actAs(people.guest);
    expect((await call()).status).toBe(403);
    actAs(null);
    expect((await call()).status).toBe(401);
    const stranger = await addMember((await apiClient(api)).org.id, "owner");
    actAs(stranger.id);
    expect((await call()).status).toBe(404);
    actAs(people.member);
    const response = await call();
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(prod.id);
    actAs(null);
  });
});

describe("on a plan without API access", () => {
  it("says the plan has no API access instead of asking for a call, and links its owner to the Plan page", async () => {
    const solo = await createTeam("solo");
    await insertKey(solo.org.id, { name: "From the Pro days" });
    const owner = await readAs(solo.owner.id, () => loadUsage(solo.org.slug, {}));
    const member = await readAs(solo.member.id, () => loadUsage(solo.org.slug, {}));
    if (owner.kind !== "ok" || member.kind !== "ok") throw new Error(`Expected the usage page, got ${JSON.stringify([owner, member])}`);
    expect(owner.noApiAccess).toEqual({
      title: "The Solo plan has no API access",
      description:
        "Usage counts calls to the API, and on the Solo plan every call is refused. API access comes with Trial, Pro, Enterprise: switch plans on the Plan page.",
      planHref: `/${solo.org.slug}/settings/plan`,
    });
    expect(member.noApiAccess).toMatchObject({ description: expect.stringMatching(/an owner can switch plans on the Plan page\.$/), planHref: null });
    // A plan with API access keeps "make a call" and its example.
    expect((await view(people.member, {})).noApiAccess).toBeNull();
  });
});

describe("the window", () => {
  it("links each row to the audit log with the window named, and the usage filters kept", () => {
    const filters: UsageFilters = { method: "GET", status: "4xx" };
    const rolling = { from: "2026-11-25T10:16:00.000Z", to: "2026-11-26T10:16:00.000Z" };
    expect(auditParamsFor(filters, rolling, { keyId: "key_1", endpoint: "GET /v1/invoices" }).toString()).toBe(
      "range=24h&endpoint=GET+%2Fv1%2Finvoices&status=4xx&key=key_1&method=GET",
    );
    // Whole days as the same days: the audit log's own "last 7 days" reaches back from this instant instead.
    const days = { from: "2026-11-20T00:00:00.000Z", to: "2026-11-26T10:16:00.000Z" };
    expect(auditParamsFor({ range: "7d" }, days).toString()).toBe("range=custom&from=2026-11-20&to=2026-11-26");
    expect(
      auditParamsFor(
        { range: "custom", from: "2026-11-01", to: "2026-11-02" },
        { from: "2026-11-01T00:00:00.000Z", to: "2026-11-03T00:00:00.000Z" },
      ).toString(),
    ).toBe("range=custom&from=2026-11-01&to=2026-11-02");
  });

  it("reaches back from the end of the current minute, in minutes for an hour, hours up to a week, days beyond", () => {
    const now = new Date("2026-11-26T10:15:30.250Z");
    const shown = (filters: UsageFilters) => {
      const result = usageWindow(filters, now);
      if (!result.ok) throw new Error(result.message);
      const chart = chartWindow(result.window);
      return [result.window.from.toISOString(), result.window.to.toISOString(), result.window.bucket, chart.from.toISOString(), chart.to.toISOString()];
    };
    expect(shown({ range: "1h" })).toEqual([
      "2026-11-26T09:16:00.000Z",
      "2026-11-26T10:16:00.000Z",
      "minute",
      "2026-11-26T09:16:00.000Z",
      "2026-11-26T10:16:00.000Z",
    ]);
    expect(shown({})).toEqual(["2026-11-25T10:16:00.000Z", "2026-11-26T10:16:00.000Z", "hour", "2026-11-25T10:00:00.000Z", "2026-11-26T11:00:00.000Z"]);
    // 7, 30 and 90 days are whole UTC days, today included.
    expect(shown({ range: "7d" })).toEqual([
      "2026-11-20T00:00:00.000Z",
      "2026-11-26T10:16:00.000Z",
      "hour",
      "2026-11-20T00:00:00.000Z",
      "2026-11-26T11:00:00.000Z",
    ]);
    expect(shown({ range: "30d" })).toEqual([
      "2026-10-28T00:00:00.000Z",
      "2026-11-26T10:16:00.000Z",
      "day",
      "2026-10-28T00:00:00.000Z",
      "2026-11-27T00:00:00.000Z",
    ]);
    expect(shown({ range: "90d" }).slice(0, 3)).toEqual(["2026-08-29T00:00:00.000Z", "2026-11-26T10:16:00.000Z", "day"]);
    // Whole UTC days, the to day included, up to now.
    expect(shown({ range: "custom", from: "2026-11-20", to: "2026-11-21" }).slice(0, 3)).toEqual([
      "2026-11-20T00:00:00.000Z",
      "2026-11-22T00:00:00.000Z",
      "hour",
    ]);
    expect(shown({ range: "custom", from: "2026-11-25", to: "2026-12-31" }).slice(0, 2)).toEqual(["2026-11-25T00:00:00.000Z", "2026-11-26T10:16:00.000Z"]);
    expect(shown({ range: "custom", from: "2025-11-01" })[2]).toBe("day");
    expect(usageWindow({ range: "custom", from: "2025-10-31" }, now)).toEqual({
      ok: false,
      message: "Usage goes back to 2025-11-01 (13 months): choose a from date on or after it.",
    });
    expect(usageWindow({ range: "custom", from: "2026-12-01" }, now)).toEqual({ ok: false, message: "This range is in the future: choose days up to today." });
  });
});
