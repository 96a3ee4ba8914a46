import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { invoices } from "@/db/schema";
import type { AnalyticsDto } from "@/lib/api/schemas/analytics";
import { utcDay } from "@/core/time";
import { apiClient, contractApi, errorOf, itMatchesTheDocument } from "./helpers/api-contract";

const api = contractApi();

const today = utcDay(new Date());
const day = (offset: number) => utcDay(new Date(Date.now() + offset * 86_400_000));
const monthsAgo = (n: number) => {
  const now = new Date();
  return utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1))).slice(0, 7);
};

async function tenant() {
  const { org, call } = await apiClient(api);
  const post = async (path: string, json?: unknown) => {
    const response = await call(path, { method: "POST", json });
    expect(response.status, path).toBeLessThan(300);
    return (await response.json()) as { id: string };
  };
  const customer = (name: string, currency: string) => post("/v1/customers", { name, currency });

  /** An invoice of `total` minor units brought to `status`; `paidOn` backdates the payment. */
  const invoice = async (
    customer: string,
    total: number,
    status: "draft" | "open" | "paid" | "void",
    dates: { issue?: string; due?: string; paidOn?: string } = {},
  ) => {
    const { id } = await post("/v1/invoices", {
      customer,
      issue_date: dates.issue,
      due_date: dates.due,
      lines: [{ description: "Work", quantity: 1, unit_amount: total }],
    });
    if (status === "draft") return id;
    await post(`/v1/invoices/${id}/finalize`);
    if (status === "paid") await post(`/v1/invoices/${id}/pay`);
    if (status === "void") await post(`/v1/invoices/${id}/void`);
    if (dates.paidOn)
      await getDb()
        .update(invoices)
        .set({ paidAt: new Date(`${dates.paidOn}T12:00:00Z`) })
        .where(and(eq(invoices.orgId, org.id), eq(invoices.id, id)));
    return id;
  };
  const analytics = async (query = "") => {
    const response = await call(`/v1/analytics${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as AnalyticsDto;
  };
  return { call, customer, invoice, analytics };
}

describe("analytics", () => {
  let t: Awaited<ReturnType<typeof tenant>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const noise = await tenant();
    await noise.invoice((await noise.customer("Someone else's", "EUR")).id, 1_234_500, "paid");

    t = await tenant();
    ids.a = (await t.customer("Alpha GmbH", "EUR")).id;
    ids.b = (await t.customer("Beta SARL", "EUR")).id;
    ids.c = (await t.customer("Gamma Inc", "USD")).id;
    await t.invoice(ids.a, 1000, "paid", { paidOn: `${monthsAgo(2)}-15` });
    await t.invoice(ids.a, 2000, "paid");
    await t.invoice(ids.b, 500, "paid", { paidOn: `${monthsAgo(1)}-03` });
    await t.invoice(ids.c, 700, "paid");
    await t.invoice(ids.b, 300, "open", { issue: day(-5), due: day(25) });
    await t.invoice(ids.c, 400, "open", { issue: day(-40), due: day(-10) });
    await t.invoice(ids.a, 999, "draft");
    await t.invoice(ids.b, 100, "void");
    await t.invoice(ids.a, 5000, "paid", { issue: "2024-12-01", due: "2024-12-31", paidOn: "2024-12-31" });
  });

  it("reports revenue, outstanding and overdue amounts per currency for a range", async () => {
    const from = `${monthsAgo(2)}-01`;
    const report = await t.analytics(`?from=${from}&to=${today}`);
    expect(report).toMatchObject({ object: "analytics", from, to: today });
    expect(report.revenue).toEqual([
      { currency: "EUR", amount: 3500, invoice_count: 3 },
      { currency: "USD", amount: 700, invoice_count: 1 },
    ]);
    expect(report.outstanding).toEqual([
      { currency: "EUR", amount: 300, invoice_count: 1 },
      { currency: "USD", amount: 400, invoice_count: 1 },
    ]);
    expect(report.overdue).toEqual([{ currency: "USD", amount: 400, invoice_count: 1 }]);
  });

  it("counts invoices by status and lists revenue by month and top customers", async () => {
    const report = await t.analytics(`?from=${monthsAgo(2)}-01&to=${today}`);
    expect(report.invoice_counts).toEqual({ draft: 1, open: 2, paid: 4, void: 1, overdue: 1 });
    expect(report.revenue_by_month).toEqual([
      { month: monthsAgo(2), revenue: [{ currency: "EUR", amount: 1000, invoice_count: 1 }] },
      { month: monthsAgo(1), revenue: [{ currency: "EUR", amount: 500, invoice_count: 1 }] },
      {
        month: monthsAgo(0),
        revenue: [
          { currency: "EUR", amount: 2000, invoice_count: 1 },
          { currency: "USD", amount: 700, invoice_count: 1 },
        ],
      },
    ]);
    expect(report.top_customers).toEqual([
      { customer: ids.a, name: "Alpha GmbH", currency: "EUR", amount: 3000, invoice_count: 2 },
      { customer: ids.b, name: "Beta SARL", currency: "EUR", amount: 500, invoice_count: 1 },
      { customer: ids.c, name: "Gamma Inc", currency: "USD", amount: 700, invoice_count: 1 },
    ]);
  });

  it("covers the last twelve months without a range", async () => {
    const report = await t.analytics();
    expect(report.from).toBe(`${monthsAgo(11)}-01`);
    expect(report.to).toBe(today);
    expect(report.revenue_by_month).toHaveLength(12);
    expect(report.revenue.find((entry) => entry.currency === "EUR")!.amount).toBe(3500);
  });

  it("includes a payment on the last day of the range and nothing after it", async () => {
    const report = await t.analytics("?from=2024-12-31&to=2024-12-31");
    expect(report.revenue).toEqual([{ currency: "EUR", amount: 5000, invoice_count: 1 }]);
    expect(report.revenue_by_month).toEqual([{ month: "2024-12", revenue: [{ currency: "EUR", amount: 5000, invoice_count: 1 }] }]);
    expect((await t.analytics("?from=2025-01-01&to=2025-01-31")).revenue).toEqual([]);
  });

  it("answers an organization without invoices with zeros and empty lists", async () => {
    const empty = await tenant();
    const report = await empty.analytics("?from=2026-01-01&to=2026-02-15");
    expect(report).toEqual({
      object: "analytics",
      livemode: true,
      from: "2026-01-01",
      to: "2026-02-15",
      revenue: [],
      outstanding: [],
      overdue: [],
      invoice_counts: { draft: 0, open: 0, paid: 0, void: 0, overdue: 0 },
      revenue_by_month: [
        { month: "2026-01", revenue: [] },
        { month: "2026-02", revenue: [] },
      ],
      top_customers: [],
    });
  });

  it.each([
    ["from=2026-03-01&to=2026-02-01", "query.to"],
    ["from=March", "query.from"],
    ["to=2026-02-30", "query.to"],
    ["currency=EUR", "query"],
  ])("refuses ?%s with 400", async (query, path) => {
    const response = await t.call(`/v1/analytics?${query}`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });
});

itMatchesTheDocument(api, 30);
