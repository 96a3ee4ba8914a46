import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { clickhouse } from "@/db/clickhouse/client";
import { insertRequestLog } from "@/db/clickhouse/request-log";
import { exportedThrough, requestsToExport } from "@/db/queries/analytics-export";
import { usageRows } from "@/lib/usage/rows";
import { listAuditLog, type AuditLogPageDto } from "@/db/queries/audit-log";
import type { AuditLogFilters } from "@/core/request-log";
import type { UsageQuery } from "@/core/usage-query";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

// Run by the "clickhouse" project only (vitest.config.ts): its setup exports the log before each
// test. The same reads with the store and without it, side by side.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The same read answered by PostgreSQL alone: the store unset for the call. */
async function fromPostgres<T>(read: () => Promise<T>): Promise<T> {
  const url = process.env.CLICKHOUSE_URL;
  delete process.env.CLICKHOUSE_URL;
  try {
    return await read();
  } finally {
    process.env.CLICKHOUSE_URL = url;
  }
}

describe("usage read from ClickHouse and the rows not exported yet", () => {
  const now = new Date();
  // On days' boundaries, as callers give a bucketed query its window (lib/usage/api-window.ts).
  const to = new Date(Math.floor(now.getTime() / DAY) * DAY + DAY);
  const from = new Date(to.getTime() - 3 * DAY);
  let orgId: string;
  let keys: string[];

  beforeAll(async () => {
    orgId = (await createOrg("pro")).id;
    keys = [(await insertKey(orgId)).id, (await insertKey(orgId)).id, (await insertKey(orgId, { mode: "test" })).id];
    const endpoints = ["GET /v1/invoices", "POST /v1/invoices", "GET /v1/products"];
    for (let i = 0; i < 240; i++) {
      await logRequest({
        orgId,
        apiKeyId: keys[i % 3]!,
        endpoint: endpoints[(i * 7) % 3]!,
        status: [200, 201, 404, 429, 500][i % 5]!,
        durationMs: (i * 53) % 900,
        at: new Date(now.getTime() - ((i * 7919) % (47 * 60)) * MINUTE),
      });
    }
  });

  it("answers every grouping and filter as PostgreSQL does, with the newest requests read from the log", async () => {
    // After the export the setup ran: these are PostgreSQL's alone until the next.
    for (let i = 0; i < 12; i++)
      await logRequest({ orgId, apiKeyId: keys[i % 2]!, at: new Date(now.getTime() - i * 1000), status: i % 4 === 0 ? 503 : 200, durationMs: 700 + i });
    const through = await exportedThrough(getDb());
    const [unexported] = rowsOf<{ n: number }>(
      await getDb().execute(sql`select count(*)::int as n from request_log where org_id = ${orgId} and id > ${through}`),
    );
    expect(Number(unexported!.n)).toBe(12);
    const stored = await clickhouse().query({
      query: "SELECT count() AS n FROM request_log FINAL WHERE org_id = {orgId:String}",
      query_params: { orgId },
      format: "JSONEachRow",
    });
    expect(Number((await stored.json<{ n: number | string }>())[0]!.n)).toBe(240);
    // Half of them written to the store by an export that has not moved the cursor yet: still read from the log alone.
    await insertRequestLog(await requestsToExport(getDb(), through, 6));

    const base = { orgId, mode: "live" as const, from, to };
    const minuteTo = new Date(Math.ceil((now.getTime() + 1) / MINUTE) * MINUTE);
    const queries: UsageQuery[] = [
      { ...base, bucket: null, groupBy: [] },
      { ...base, bucket: null, groupBy: ["key", "endpoint", "status"] },
      { ...base, bucket: "hour", groupBy: ["status"] },
      { ...base, bucket: "day", groupBy: ["key"], status: "5xx" },
      { ...base, bucket: "minute", groupBy: [], from: new Date(minuteTo.getTime() - 30 * MINUTE), to: minuteTo },
      { ...base, bucket: null, groupBy: ["endpoint"], method: "POST" },
      { ...base, bucket: null, groupBy: ["status"], keyId: keys[0]!, endpoint: "GET /v1/invoices" },
      { ...base, bucket: "hour", groupBy: ["key"], limit: 5 },
      { ...base, mode: "test", bucket: null, groupBy: ["endpoint"] },
      // Off the buckets' boundaries, as the contract allows: the periods the rollups would give.
      { ...base, bucket: "hour", groupBy: ["status"], from: new Date(from.getTime() + 37 * MINUTE), to: new Date(minuteTo.getTime() - 13 * MINUTE), limit: 9 },
      { ...base, bucket: "day", groupBy: [], from: new Date(from.getTime() + 5 * HOUR + 7 * MINUTE), to: minuteTo },
    ];
    for (const query of queries) {
      const answered = await usageRows(query);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered).toEqual(await fromPostgres(() => usageRows(query)));
    }
  });
});

describe("the audit log read from ClickHouse and the rows not exported yet", () => {
  const now = new Date();
  let orgId: string;
  let keys: string[];

  beforeAll(async () => {
    orgId = (await createOrg("pro")).id;
    keys = [(await insertKey(orgId)).id, (await insertKey(orgId)).id, (await insertKey(orgId, { mode: "test" })).id];
    // Some in one millisecond, so pages break ties by id.
    for (let i = 0; i < 60; i++) {
      await logRequest({
        orgId,
        apiKeyId: keys[i % 3]!,
        endpoint: ["GET /v1/invoices", "POST /v1/invoices"][i % 2]!,
        status: [200, 404, 500, 403][i % 4]!,
        errorCode: i % 4 === 3 ? "ip_not_allowed" : null,
        at: new Date(now.getTime() - 3 * HOUR + Math.floor(i / 3) * MINUTE),
      });
    }
  });

  /** Every page walking to older rows, then back to newer ones from the oldest. */
  async function walk(filters: AuditLogFilters, mode: "live" | "test" = "live") {
    const books = { orgId, mode };
    const pages: AuditLogPageDto[] = [];
    let page = await listAuditLog(books, filters, { now, pageSize: 7 });
    pages.push(page);
    while (page.older) pages.push((page = await listAuditLog(books, { ...filters, before: page.older }, { now, pageSize: 7 })));
    while (page.newer) pages.push((page = await listAuditLog(books, { ...filters, after: page.newer }, { now, pageSize: 7 })));
    return pages;
  }

  it("pages through the same rows, in the same order, with the same cursors as PostgreSQL alone", async () => {
    for (let i = 0; i < 10; i++) await logRequest({ orgId, apiKeyId: keys[i % 2]!, at: new Date(now.getTime() - i * 1000), status: i % 2 ? 500 : 201 });
    const through = await exportedThrough(getDb());
    await insertRequestLog(await requestsToExport(getDb(), through, 4));

    const filtered: AuditLogFilters[] = [
      {},
      { range: "24h" },
      { status: "5xx" },
      { key: keys[1]! },
      { method: "POST" },
      { error: "ip_not_allowed" },
      { endpoint: "GET /v1/invoices", status: "200" },
    ];
    for (const filters of filtered) {
      const pages = await walk(filters);
      expect(pages.flatMap((page) => page.rows).length).toBeGreaterThan(0);
      expect(pages).toEqual(await fromPostgres(() => walk(filters)));
    }
    const testPages = await walk({}, "test");
    expect(testPages[0]!.rows.map((row) => row.keyMode)).toEqual(Array(7).fill("test"));
    expect(testPages).toEqual(await fromPostgres(() => walk({}, "test")));
  });
});
