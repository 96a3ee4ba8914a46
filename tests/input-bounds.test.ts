import { beforeAll, describe, expect, it } from "vitest";
import { signUpAction } from "@/app/(auth)/actions";
import { createApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { exportAuditCsv } from "@/app/[orgSlug]/settings/api/audit/export/export-audit-csv";
import { loadAuditLog } from "@/app/[orgSlug]/settings/api/audit/load-audit-log";
import { listApiKeys } from "@/db/queries/api-keys";
import { orgAccess } from "@/lib/org-access";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";
import { createTeam, form } from "./helpers/factories";
import { actAs, readAs } from "./helpers/session";

// Every input is bounded and checked before work; anything else is 400
// validation_failed (a field error in the dashboard), never a 500 and never a long computation.

const api = contractApi();
let client: ApiClient;
let customerId: string;

beforeAll(async () => {
  client = await apiClient(api);
  const response = await client.call("/v1/customers", { method: "POST", json: { name: "Bounded GmbH", currency: "EUR" } });
  customerId = ((await response.json()) as { id: string }).id;
});

async function expectValidationFailure(response: Response, path: string) {
  expect(response.status).toBe(400);
  const error = await errorOf(response);
  expect(error.code).toBe("validation_failed");
  expect(error.details?.map((detail) => detail.path)).toContain(path);
  return error;
}

const LONE_SURROGATE = "\ud800";

describe("dates and date ranges on /v1", () => {
  it("refuses an analytics range ending in 9999 at once instead of walking its months", async () => {
    const started = performance.now();
    const error = await expectValidationFailure(await client.call("/v1/analytics?to=9999-12-30"), "query.to");
    expect(error.details?.[0]?.message).toBe("Use a date from 2000-01-01 to 2099-12-31.");
    // The defect took ~6 s; a refusal before any work takes milliseconds (generous for slow CI).
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses the year 0000 in from, to and issue_date", async () => {
    await expectValidationFailure(await client.call("/v1/analytics?from=0000-01-01"), "query.from");
    await expectValidationFailure(await client.call("/v1/invoices?to=0000-12-31"), "query.to");
    const draft = { customer: customerId, issue_date: "0000-01-01", lines: [{ description: "Work", quantity: 1, unit_amount: 100 }] };
    await expectValidationFailure(await client.call("/v1/invoices", { method: "POST", json: draft }), "issue_date");
  });

  it("refuses a date range longer than ten years, given or implied by a from date alone", async () => {
    const error = await expectValidationFailure(await client.call("/v1/analytics?from=2001-01-01&to=2099-12-31"), "query.to");
    expect(error.details?.[0]?.message).toMatch(/at most 3,660 days/);
    await expectValidationFailure(await client.call("/v1/analytics?from=2000-01-01"), "query.from");
    await expectValidationFailure(await client.call("/v1/invoices?from=2000-01-01&to=2099-12-31"), "query.to");
  });

  it("still answers the widest range it allows, with every month listed", async () => {
    const response = await client.call("/v1/analytics?from=2016-01-01&to=2025-12-31");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { revenue_by_month: unknown[] }).revenue_by_month).toHaveLength(120);
  });

  // 2016-01-01 to 2026-01-07 is 3,660 days with both ends included; one day more is 3,661.
  it("answers a range of exactly 3,660 days and refuses 3,661, on /v1/analytics and the audit log", async () => {
    expect((await client.call("/v1/analytics?from=2016-01-01&to=2026-01-07")).status).toBe(200);
    const error = await expectValidationFailure(await client.call("/v1/analytics?from=2016-01-01&to=2026-01-08"), "query.to");
    expect(error.details?.[0]?.message).toMatch(/at most 3,660 days/);
    const team = await createTeam("pro");
    const audit = (to: string) => readAs(team.owner.id, () => loadAuditLog(team.org.slug, { range: "custom", from: "2016-01-01", to }));
    expect(await audit("2026-01-07")).toMatchObject({ kind: "ok" });
    expect(await audit("2026-01-08")).toMatchObject({ kind: "invalid", message: expect.stringMatching(/at most 3,660 days/) });
  });
});

describe("text the database cannot store on /v1", () => {
  it("refuses a NUL in a body string, naming the field", async () => {
    const error = await expectValidationFailure(await client.call("/v1/customers", { method: "POST", json: { name: "Null\u0000Corp" } }), "name");
    expect(error.details?.[0]?.message).toBe("Remove the NUL character (\\u0000).");
  });

  it("refuses a NUL in a query and in a path id", async () => {
    await expectValidationFailure(await client.call("/v1/customers?search=%00"), "query.search");
    await expectValidationFailure(await client.call("/v1/invoices?customer=cus_%00"), "query.customer");
    await expectValidationFailure(await client.call("/v1/customers/cus_%00"), "param.id");
    await expectValidationFailure(await client.call("/v1/customers/cus_%00", { method: "DELETE" }), "param.id");
  });

  it("refuses lone surrogates in the jsonb fields address and metadata, keys included", async () => {
    await expectValidationFailure(
      await client.call("/v1/customers", { method: "POST", json: { name: "A", address: { city: `Berlin${LONE_SURROGATE}` } } }),
      "address.city",
    );
    await expectValidationFailure(
      await client.call("/v1/customers", { method: "POST", json: { name: "A", metadata: { crm: LONE_SURROGATE } } }),
      "metadata.crm",
    );
    const response = await client.call(`/v1/customers/${customerId}`, { method: "PATCH", json: { metadata: { [`k${LONE_SURROGATE}`]: "v" } } });
    expect(response.status).toBe(400);
  });

  it("refuses __proto__ as a metadata key instead of dropping it silently", async () => {
    const body = `{"name":"Proto Ltd","metadata":{"__proto__":"x","crm":"1"}}`;
    const response = await client.call("/v1/customers", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    await expectValidationFailure(response, "metadata.__proto__");
  });

  it("changes nothing when it refuses", async () => {
    const before = await (await client.call(`/v1/customers/${customerId}`)).json();
    const refused = await client.call(`/v1/customers/${customerId}`, { method: "PATCH", json: { name: "Renamed\u0000", metadata: { crm: "2" } } });
    expect(refused.status).toBe(400);
    expect(await (await client.call(`/v1/customers/${customerId}`)).json()).toEqual(before);
  });
});

itMatchesTheDocument(api, 15);

describe("dashboard inputs", () => {
  it("refuses a key name of 100 characters under stacks of combining marks (a 500 KB name)", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const zalgo = `a${"\u0301".repeat(5_000)}`.repeat(100);
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: zalgo }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { name: ["Use at most 100 characters."] } });
    // 100 characters in 1,600 UTF-16 code units, but 4,600 UTF-8 bytes (U+20D0 takes three).
    const stacked = `a${"\u20d0".repeat(15)}`.repeat(100);
    expect(await createApiKeyAction(null, form({ orgId: team.org.id, name: stacked }))).toMatchObject({
      ok: false,
      fieldErrors: { name: ["This name is too long: use fewer emoji or accent marks."] },
    });
    expect(await listApiKeys(team.org.id)).toEqual([]);
  });

  it("refuses NUL and lone surrogates in sign-up fields with a field error", async () => {
    // A plain object: FormData itself would turn the lone surrogate into U+FFFD.
    const result = await signUpAction(null, {
      name: "Eve\u0000",
      email: "eve@example.test",
      password: "long enough password",
      organizationName: `Org${LONE_SURROGATE}`,
    });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        name: ["Remove the NUL character (\\u0000).", "Remove control characters such as tabs or line breaks."],
        organizationName: ["Send valid Unicode: this text has an unpaired surrogate."],
      },
    });
  });

  it("refuses a NUL in an organization id sent to an action", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    expect(await createApiKeyAction(null, form({ orgId: `${team.org.id}\u0000`, name: "Billing" }))).toMatchObject({
      ok: false,
      fieldErrors: { orgId: expect.any(Array) },
    });
  });

  it("answers the year 0000 in the audit log's URL with a message, and its CSV with 400", async () => {
    const team = await createTeam("pro");
    expect(await readAs(team.owner.id, () => loadAuditLog(team.org.slug, { range: "custom", from: "0000-01-01" }))).toMatchObject({
      kind: "invalid",
      message: "Use a date from 2000-01-01 to 2099-12-31.",
    });
    const response = await readAs(team.owner.id, () => exportAuditCsv(team.org.slug, new URLSearchParams({ range: "custom", from: "0000-01-01" })));
    expect(response.status).toBe(400);
    expect(await readAs(team.owner.id, () => loadAuditLog(team.org.slug, { before: "0000-01-01T00:00:00.000000Z_1" }))).toMatchObject({ kind: "invalid" });
    expect(await readAs(team.owner.id, () => loadAuditLog(team.org.slug, { key: "key_\u0000" }))).toMatchObject({ kind: "invalid" });
  });

  it("treats an organization slug with a NUL as one that does not exist", async () => {
    const team = await createTeam("pro");
    expect(await readAs(team.owner.id, () => orgAccess(`${team.org.slug}\u0000`))).toMatchObject({ ok: false, status: 404 });
  });
});

describe("metadata at and past its bounds on /v1", () => {
  it("refuses 51 metadata keys, and a body of 30,000 keys, without reading them one by one", async () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    const error = await expectValidationFailure(
      await client.call("/v1/customers", { method: "POST", json: { name: "Many Keys", metadata: keys(51) } }),
      "metadata",
    );
    expect(error.details).toEqual([{ path: "metadata", message: "At most 50 metadata keys." }]);
    await expectValidationFailure(await client.call("/v1/customers", { method: "POST", json: { name: "Many Keys", metadata: keys(30_000) } }), "metadata");
    expect((await client.call("/v1/customers", { method: "POST", json: { name: "Fifty Keys", metadata: keys(50) } })).status).toBe(201);
  });
});
